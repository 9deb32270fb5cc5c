// Blelloch work-efficient exclusive scan in local memory.
__kernel void scan(__global const int *in, __global int *out, __global int *sums, __local int *tmp) {
    int lid = (int)get_local_id(0);
    int n = (int)get_local_size(0) * 2;
    int base = (int)get_group_id(0) * n;
    tmp[2 * lid] = in[base + 2 * lid];
    tmp[2 * lid + 1] = in[base + 2 * lid + 1];
    int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1;
            int bi = offset * (2 * lid + 2) - 1;
            tmp[bi] += tmp[ai];
        }
        offset <<= 1;
    }
    if (lid == 0) {
        sums[get_group_id(0)] = tmp[n - 1];
        tmp[n - 1] = 0;
    }
    for (int d = 1; d < n; d <<= 1) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1;
            int bi = offset * (2 * lid + 2) - 1;
            int t = tmp[ai];
            tmp[ai] = tmp[bi];
            tmp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + 2 * lid] = tmp[2 * lid];
    out[base + 2 * lid + 1] = tmp[2 * lid + 1];
}
