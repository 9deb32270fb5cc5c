// Vector swizzles, shuffle/shuffle2, select, vector relational ops, vector literals and conversions.
__kernel void vectors(__global float4 *f, __global int8 *iv, __global uchar16 *bytes, __global double2 *dv) {
    size_t i = get_global_id(0);
    float4 a = f[i];
    float4 b = a.wzyx;
    float2 lo = a.lo, hi = a.hi, ev = a.even, od = a.odd;
    float3 s3 = a.s210;
    a.xy = b.zw;
    int4 mask = (int4)(3, 2, 1, 0);
    float4 sh = shuffle(a, convert_uint4(mask));
    float8 sh2 = shuffle2(a, b, (uint8)(0, 4, 1, 5, 2, 6, 3, 7));
    int4 cmp = a > b;
    float4 sel = select(a, b, cmp);
    int8 v8 = iv[i];
    v8.s0123 = v8.s4567 + (int4)(1, -2, 3, -4);
    uchar16 by = bytes[i];
    by = by.sfedcba9876543210;
    by.s9 = (uchar)0xff;
    bytes[i] = by + (uchar16)(1);
    iv[i] = v8 * (int8)(2);
    f[i] = sel + sh + sh2.lo + sh2.hi + (float4)(lo + hi + ev + od, s3.x, s3.y) + (float4)(any(cmp), all(cmp), 0, 0);
    dv[i] = convert_double2(a.xy) + (double2)(1.0, -1.0);
}
