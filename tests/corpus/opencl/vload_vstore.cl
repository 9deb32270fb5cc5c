// vloadn/vstoren, vload_half/vstore_half(_rte), vloada_half and unaligned vector access.
__kernel void vector_mem(__global const float *src, __global float *dst,
                         __global const half *hsrc, __global half *hdst,
                         __global const uchar *bytes, __global int *iout) {
    size_t i = get_global_id(0);
    float2 a = vload2(i, src);
    float3 b = vload3(i, src + 1);
    float4 c = vload4(i, src);
    float8 d = vload8(0, src + i);
    float16 e = vload16(0, src);
    vstore2(a * 2.0f, i, dst);
    vstore3(b, i, dst);
    vstore4(c + d.lo + d.hi + e.s0123, i, dst);
    vstore8(d, i, dst);
    vstore16(e, 0, dst + 64);
    float h = vload_half(i, hsrc);
    float4 h4 = vload_half4(i, hsrc);
    float4 ha4 = vloada_half4(i, hsrc);
    vstore_half(h, i, hdst);
    vstore_half_rte(h4.x, i + 1, hdst);
    vstore_half4(h4 + ha4, i, hdst);
    vstore_half4_rtz(ha4, i + 4, hdst);
    vstorea_half2_rtp(h4.xy, i, hdst);
    uchar4 u = vload4(i, bytes);
    iout[i] = u.x | (u.y << 8) | (u.z << 16) | (u.w << 24);
}
