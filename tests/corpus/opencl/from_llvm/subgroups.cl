// cl_khr_subgroups: sizes, ids, broadcast and reductions.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void subgroups(__global const int *in, __global int *out) {
    size_t g = get_global_id(0);
    int v = in[g];
    __global int *o = out + 4 * g;
    o[0] = (int)get_sub_group_size() + (int)get_sub_group_local_id();
    o[1] = sub_group_broadcast(v, 0);
    o[2] = sub_group_reduce_add(v);
    o[3] = sub_group_scan_inclusive_max(v) + (int)get_num_sub_groups();
}
