// Saturating conversions between integer and float types.
__kernel void convert_sat(__global const float *f, __global const int *i, __global uchar *u8,
                          __global char *s8, __global ushort *u16, __global int *fi) {
    size_t g = get_global_id(0);
    u8[g] = convert_uchar_sat(i[g]);
    s8[g] = convert_char_sat(i[g]);
    u16[g] = convert_ushort_sat(f[g]);
    fi[g] = convert_int_sat(f[g] * 1e9f);
}
