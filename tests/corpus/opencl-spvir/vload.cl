// Vector loads and stores, including half forms.
kernel void vls(global const float *in, global float *out, global half *h) {
  size_t g = get_global_id(0);
  float4 a = vload4(g, in);
  float2 b = vload2(g, in + 1);
  vstore4(a * 2.0f, g, out);
  vstore2(b, g, out + 8);
  vstore_half(a.x, g, h);
  vstore_half4_rtz(a, g, h + 4);
  out[g + 16] = vload_half(g, h) + vloada_half4(0, h).y;
}
