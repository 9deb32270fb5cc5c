// args: -cl-std=CL1.2 -cl-kernel-arg-info
// llvm-spirv: --spirv-gen-kernel-arg-name-md
// OpenCL C 1.2 with kernel-arg info metadata, const/restrict/volatile qualifiers and constant buffers.
__kernel void qualifiers(__global const float *restrict src, __global float *restrict dst,
                         __constant float *coeffs, volatile __global int *flag, __local float *tmp) {
    size_t i = get_global_id(0);
    tmp[get_local_id(0)] = src[i] * coeffs[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    dst[i] = tmp[(get_local_id(0) + 1) % get_local_size(0)] + coeffs[1];
    if (i == 0) *flag = 1;
}
