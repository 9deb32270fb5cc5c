// OpenCL 1.x and 2.0 atomics on global and local memory.
kernel void count(global int *hist, global const uint *keys, volatile global uint *total,
                  global atomic_int *a2) {
  local int lh[16];
  size_t i = get_global_id(0);
  if (get_local_id(0) < 16) lh[get_local_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&lh[keys[i] % 16]);
  atomic_add(&hist[keys[i] % 16], 1);
  atomic_max(&hist[16], (int)keys[i]);
  atomic_min(total, keys[i]);
  atomic_xchg(&hist[17], 3);
  atomic_cmpxchg(&hist[18], 0, 1);
  atomic_fetch_add(a2, 2);
  atomic_store_explicit(a2 + 1, 5, memory_order_relaxed);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) hist[19] = lh[0];
}
