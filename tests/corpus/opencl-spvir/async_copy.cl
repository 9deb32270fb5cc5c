// Asynchronous work-group copies and prefetch.
kernel void stage(global const float4 *src, global float4 *dst, local float4 *tile) {
  event_t e = async_work_group_copy(tile, src + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  size_t l = get_local_id(0);
  tile[l] = tile[l] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(dst + get_group_id(0) * 16, tile, 16, 1, 0);
  wait_group_events(1, &e);
  prefetch(src, 4);
}
