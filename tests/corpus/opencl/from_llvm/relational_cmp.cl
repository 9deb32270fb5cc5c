// Two-argument relational functions (ordered comparisons, isnotequal unordered, isordered,
// isunordered) on scalars and vectors, with NaN, and to_global of a generic pointer.
__kernel void relational_cmp(__global const float *x, __global const float *y, __global int *out) {
    size_t g = get_global_id(0);
    float a = x[g], b = y[g];
    out[3 * g] = isequal(a, b) + 2 * isnotequal(a, b) + 4 * isgreater(a, b)
        + 8 * isgreaterequal(a, b) + 16 * isless(a, b) + 32 * islessequal(a, b)
        + 64 * islessgreater(a, b) + 128 * isordered(a, b) + 256 * isunordered(a, b);
    float4 va = (float4)(a, b, a, b), vb = (float4)(b, a, a, b);
    int4 m = isless(va, vb);
    out[3 * g + 1] = m.x + 2 * m.y + 4 * m.z + 8 * m.w;
    __global int *gp = to_global((__generic int *)out);
    out[3 * g + 2] = gp != 0;
}
