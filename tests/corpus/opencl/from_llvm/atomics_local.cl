// Atomics on a __local counter, then one write per group.
__kernel void atomics_local(__global const int *in, __global int *out) {
    __local int count;
    if (get_local_id(0) == 0) count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (in[get_global_id(0)] > 0) atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) out[get_group_id(0)] = count;
}
