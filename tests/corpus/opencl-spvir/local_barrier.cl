// Local memory (a parameter and a kernel-scope array) and barriers.
kernel void reverse(global int *data, local int *scratch) {
  local int fixed[64];
  size_t l = get_local_id(0);
  size_t n = get_local_size(0);
  scratch[l] = data[get_global_id(0)];
  fixed[l % 64] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = scratch[n - 1 - l] + fixed[(n - 1 - l) % 64];
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
}
