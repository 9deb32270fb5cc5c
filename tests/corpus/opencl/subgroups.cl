// cl_khr_subgroups builtins (OpGroup* with Reduce/InclusiveScan/ExclusiveScan group operations).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void subgroup_ops(__global const int *in, __global int *out, __global uint *info) {
    size_t gid = get_global_id(0);
    int v = in[gid];
    int sum = sub_group_reduce_add(v);
    int mn = sub_group_reduce_min(v);
    int mx = sub_group_reduce_max(v);
    int inc = sub_group_scan_inclusive_add(v);
    int exc = sub_group_scan_exclusive_max(v);
    float fexc = sub_group_scan_exclusive_add((float)v);
    int b = sub_group_broadcast(v, 0);
    int all = sub_group_all(v > 0);
    int any = sub_group_any(v < 0);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
    out[gid] = sum + mn + mx + inc + exc + (int)fexc + b + all + any;
    if (get_sub_group_local_id() == 0) {
        info[get_sub_group_id()] = get_sub_group_size() + get_max_sub_group_size() * 100
                                 + get_num_sub_groups() * 10000 + get_enqueued_num_sub_groups();
    }
}
