// Relational builtins (isnan, isequal, signbit, bitselect, any/all) and geometric ones.
__kernel void rel_geo(__global float4 *a, __global float4 *b, __global int4 *flags, __global float *out) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    int4 f = isequal(x, y) | isnotequal(x, y) << 1 | isgreater(x, y) << 2 | isgreaterequal(x, y) << 3;
    f |= isless(x, y) << 4 | islessequal(x, y) << 5 | islessgreater(x, y) << 6 | isfinite(x) << 7;
    f |= isinf(x) << 8 | isnan(x) << 9 | isnormal(x) << 10 | isordered(x, y) << 11 | isunordered(x, y) << 12;
    f |= signbit(x) << 13;
    flags[i] = f;
    float4 bs = bitselect(x, y, as_float4((uint4)0x80000000u));
    float4 sel = select(x, y, isless(x, y));
    float3 c = cross(x.xyz, y.xyz);
    float4 c4 = cross(x, y);
    out[i] = dot(x, y) + length(bs) + distance(x, sel) + fast_length(c) + fast_distance(x, y)
           + normalize(c).x + fast_normalize(c4).y + (any(isnan(x)) ? 1.0f : 0.0f) + (all(x > 0.0f) ? 2.0f : 0.0f);
}
