// Opaque types together: images of three shapes and accesses, a literal and a passed sampler,
// pipes with reservations, and an event.
constant sampler_t smp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
kernel void opaque_types(read_only image2d_t src, write_only image3d_t dst,
                         read_write image1d_t rw, sampler_t s2, read_only pipe int pin,
                         write_only pipe int pout, global float4 *out, local float *tile) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  float4 a = read_imagef(src, smp, c);
  float4 b = read_imagef(src, s2, convert_float2(c));
  write_imagef(dst, (int4)(c, 0, 0), a + b);
  write_imagef(rw, c.x, read_imagef(rw, c.x));
  int v;
  if (read_pipe(pin, &v) == 0)
    write_pipe(pout, &v);
  reserve_id_t r = reserve_write_pipe(pout, 1);
  if (is_valid_reserve_id(r)) {
    write_pipe(pout, r, 0, &v);
    commit_write_pipe(pout, r);
  }
  event_t e = async_work_group_copy(tile, (global const float *)out, 4, 0);
  wait_group_events(1, &e);
  out[c.x] = a + (float4)(tile[0]);
}
