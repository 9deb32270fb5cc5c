// args: -O2
// N-body force accumulation with local tiles, float4 math and rsqrt at -O2.
__kernel void nbody(__global const float4 *pos, __global float4 *vel, __global float4 *newPos,
                    int n, float dt, float eps2, __local float4 *tile) {
    int gid = (int)get_global_id(0);
    int lid = (int)get_local_id(0);
    int lsz = (int)get_local_size(0);
    float4 p = pos[gid];
    float4 a = (float4)(0.0f);
    for (int base = 0; base < n; base += lsz) {
        tile[lid] = pos[base + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < lsz; ++j) {
            float4 r = tile[j] - p;
            float d2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
            float inv = rsqrt(d2);
            float s = tile[j].w * inv * inv * inv;
            a += s * r;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[gid] + a * dt;
    vel[gid] = v;
    newPos[gid] = (float4)(p.xyz + v.xyz * dt, p.w);
}
