// Tree reduction in a __local kernel argument.
__kernel void local_arg_reduce(__global const float *in, __global float *sums, __local float *scratch) {
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (l < s) scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) sums[get_group_id(0)] = scratch[0];
}
