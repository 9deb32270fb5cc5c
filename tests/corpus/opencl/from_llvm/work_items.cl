// Work-item builtins: ids, sizes, offsets and dimensions.
__kernel void work_items(__global uint *out) {
    size_t g = get_global_id(0);
    __global uint *o = out + g * 8;
    o[0] = (uint)get_global_id(0);
    o[1] = (uint)get_local_id(0);
    o[2] = (uint)get_group_id(0);
    o[3] = (uint)get_local_size(0);
    o[4] = (uint)get_num_groups(0);
    o[5] = (uint)get_global_size(0);
    o[6] = get_work_dim();
    o[7] = (uint)get_global_offset(0) + (uint)get_global_linear_id();
}
