// Half-precision loads and stores through float.
__kernel void vload_half(__global const half *h, __global float *f, __global half *ho) {
    size_t i = get_global_id(0);
    float v = vload_half(i, h);
    f[i] = v * 2.0f;
    vstore_half(v + 1.0f, i, ho);
    vstore_half_rtz(v * 3.0f, i + 8, ho);
}
