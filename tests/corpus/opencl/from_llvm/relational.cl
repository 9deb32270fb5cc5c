// Relational functions: isnan, isinf, any, all, select on scalars.
__kernel void relational(__global const float *x, __global int *out) {
    size_t g = get_global_id(0);
    float v = x[g];
    out[2 * g] = isnan(v) + 2 * isinf(v) + 4 * signbit(v);
    int4 m = (int4)(v > 0.0f, v < 1.0f, v == 2.0f, 0) ? (int4)(-1) : (int4)(0);
    out[2 * g + 1] = any(m) + 2 * all(m);
}
