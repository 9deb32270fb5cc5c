// Extended math: OpenCL.std instructions on scalars and vectors.
kernel void mathk(global float4 *v, global float *s, global int *n) {
  size_t g = get_global_id(0);
  float4 x = v[g];
  v[g] = fmax(sin(x) * cos(x), pow(x, (float4)(2.0f))) + mad(x, x, x) + clamp(x, 0.0f, 1.0f);
  s[g] = native_exp(s[g]) + half_sqrt(s[g]) + fabs(s[g]) + length(x) + dot(x, x);
  s[g + 1] = atan2(s[g], 2.0f) + fract(s[g], &s[g + 2]) + ldexp(s[g], 3);
  n[g] = abs(n[g]) + clz(n[g]) + popcount(n[g]) + mad_sat(n[g], 2, 3) + rotate(n[g], 3);
  n[g + 1] = max(n[g], 7) + hadd(n[g], n[g + 2]) + mul_hi(n[g], n[g + 3]);
}
