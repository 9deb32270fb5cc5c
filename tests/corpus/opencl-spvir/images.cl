// Images and samplers: reads with and without samplers, writes, queries.
constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
kernel void img(read_only image2d_t src, write_only image2d_t dst, sampler_t s2,
                global int *dims) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  float4 a = read_imagef(src, smp, c);
  float4 b = read_imagef(src, s2, convert_float2(c));
  float4 d = read_imagef(src, c);
  write_imagef(dst, c, a + b + d);
  dims[0] = get_image_width(src) + get_image_height(dst);
}
