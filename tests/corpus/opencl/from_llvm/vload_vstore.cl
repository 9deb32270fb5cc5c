// vloadn and vstoren on global memory.
__kernel void vload_vstore(__global const float *src, __global float *dst, __global const int *isrc,
                           __global int *idst) {
    size_t i = get_global_id(0);
    float4 a = vload4(i, src);
    float2 b = vload2(i, src + 1);
    vstore4(a * 2.0f + (float4)(b, b), i, dst);
    int3 c = vload3(i, isrc);
    vstore3(c + 1, i, idst);
}
