// Vector arithmetic, swizzles, shuffles and select.
__kernel void vectors(__global const float4 *a, __global const int4 *m, __global float4 *out) {
    size_t g = get_global_id(0);
    float4 x = a[g];
    float4 y = x.wzyx * 2.0f + x.xxyy;
    int4 mask = m[g] > 0;
    float4 z = select(x, y, mask);
    out[g] = (float4)(z.xy + z.zw, dot(x, y), length(x.xy));
}
