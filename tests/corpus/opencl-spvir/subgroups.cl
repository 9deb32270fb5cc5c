// Subgroup builtins (cl_khr_subgroups).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sg(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int x = in[g];
  out[g] = sub_group_reduce_add(x) + sub_group_broadcast(x, 0) + (int)get_sub_group_id() +
           (int)get_sub_group_local_id() + (int)get_sub_group_size() + sub_group_any(x > 3) +
           sub_group_scan_inclusive_max(x);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
}
