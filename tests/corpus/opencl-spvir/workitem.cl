// Work-item builtins in every dimension.
kernel void ids(global ulong *out) {
  size_t g = get_global_linear_id();
  out[g * 8 + 0] = get_global_id(0) + get_global_id(1) + get_global_id(2);
  out[g * 8 + 1] = get_local_id(0) + get_local_id(1);
  out[g * 8 + 2] = get_group_id(0);
  out[g * 8 + 3] = get_global_size(0) * get_local_size(1);
  out[g * 8 + 4] = get_num_groups(0);
  out[g * 8 + 5] = get_work_dim();
  out[g * 8 + 6] = get_global_offset(0);
  out[g * 8 + 7] = get_local_linear_id() + get_enqueued_local_size(0);
}
