// Explicit conversions with saturation and all rounding modes (FPRoundingMode / SaturatedConversion decorations).
__kernel void conversions(__global const float4 *fin, __global const double *din, __global const long *lin,
                          __global int4 *iout, __global uchar4 *ucout, __global short *sout,
                          __global float *fout, __global half *hout) {
    size_t i = get_global_id(0);
    float4 f = fin[i];
    iout[i] = convert_int4_sat_rte(f) + convert_int4_rtz(f) + convert_int4_rtp(f) + convert_int4_rtn(f);
    ucout[i] = convert_uchar4_sat(f * 255.0f) + convert_uchar4_sat_rtn(f);
    sout[i] = convert_short_sat(lin[i]) + convert_short_sat_rtp(f.x);
    fout[i] = convert_float_rtz(lin[i]) + convert_float_rte(din[0]) + convert_float_rtp((int)i) + convert_float_rtn((uint)i);
    fout[i] += convert_float(convert_char_sat(f.y)) + convert_float(convert_ulong_sat(f.z)) + as_float(convert_uint_sat(f.w));
    vstore_half_rtz(f.x, i, hout);
    vstore_half_rtp(f.y, i + 1, hout);
    vstore_half_rtn(f.z, i + 2, hout);
}
