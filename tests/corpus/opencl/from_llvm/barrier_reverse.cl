// A __local array reversed within the work-group across a barrier.
__kernel void barrier_reverse(__global int *data) {
    __local int tmp[16];
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    size_t g = get_global_id(0);
    tmp[l] = data[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[g] = tmp[n - 1 - l];
}
