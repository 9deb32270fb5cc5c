// OpenCL 2.0 work-group collective functions.
__kernel void wg_collectives(__global const int *in, __global int *out, __global float *fout) {
    size_t gid = get_global_id(0);
    int v = in[gid];
    int all = work_group_all(v > 0);
    int any = work_group_any(v < 0);
    int b = work_group_broadcast(v, 0);
    int b2 = work_group_broadcast(v, (size_t)1, (size_t)0);
    int sum = work_group_reduce_add(v);
    int mn = work_group_reduce_min(v);
    uint mx = work_group_reduce_max((uint)v);
    int inc = work_group_scan_inclusive_add(v);
    int excmax = work_group_scan_exclusive_max(v);
    float fmn = work_group_scan_inclusive_min((float)v);
    long lsum = work_group_reduce_add((long)v);
    out[gid] = all + any + b + b2 + sum + mn + (int)mx + inc + excmax + (int)lsum;
    fout[gid] = fmn;
}
