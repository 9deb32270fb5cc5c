// triple: spir-unknown-unknown
// args: -cl-std=CL1.2
// OpenCL C 1.2 on 32-bit SPIR with legacy atomics and local memory.
__kernel void histogram(__global const uchar *data, uint n, __global uint *bins, __local uint *local_bins) {
    uint lid = get_local_id(0);
    for (uint b = lid; b < 256; b += get_local_size(0)) local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        atomic_inc(&local_bins[data[i]]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 256; b += get_local_size(0)) atomic_add(&bins[b], local_bins[b]);
}
