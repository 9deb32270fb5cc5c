// Conversions with saturation and rounding modes, and reinterpretation.
kernel void conv(global const float *f, global int *i, global uchar *u, global short4 *s,
                 global float *o) {
  size_t g = get_global_id(0);
  i[g] = convert_int_sat(f[g]);
  u[g] = convert_uchar_sat_rte(f[g] * 255.0f);
  s[g] = convert_short4_sat(convert_int4_rtz(vload4(g, f)));
  o[g] = convert_float_rtp(i[g]) + as_float(i[g]) + (float)u[g];
  i[g + 1] = convert_int_rtn(f[g]);
  u[g + 1] = convert_uchar(i[g]);
}
