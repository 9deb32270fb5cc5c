// Conversions with explicit rounding modes.
__kernel void convert_round(__global const int *i, __global const float *f, __global float *of,
                            __global int *oi) {
    size_t g = get_global_id(0);
    of[4 * g + 0] = convert_float_rte(i[g]);
    of[4 * g + 1] = convert_float_rtz(i[g]);
    of[4 * g + 2] = convert_float(i[g]);
    of[4 * g + 3] = convert_float((uint)i[g]);
    oi[4 * g + 0] = convert_int_rte(f[g]);
    oi[4 * g + 1] = convert_int_rtz(f[g]);
    oi[4 * g + 2] = convert_int_rtp(f[g]);
    oi[4 * g + 3] = convert_int_rtn(f[g]);
}
