// Statically sized __local arrays in kernels plus dynamically sized __local arguments.
__kernel void stencil(__global const float *in, __global float *out, __local float *dyn) {
    __local float halo[258];
    __local int flags[2];
    int lid = (int)get_local_id(0);
    int gid = (int)get_global_id(0);
    int lsz = (int)get_local_size(0);
    halo[lid + 1] = in[gid];
    if (lid == 0) {
        halo[0] = gid > 0 ? in[gid - 1] : 0.0f;
        flags[0] = 0;
    }
    if (lid == lsz - 1) halo[lid + 2] = in[gid + 1];
    dyn[lid] = in[gid] * 0.5f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = 0.25f * halo[lid] + 0.5f * halo[lid + 1] + 0.25f * halo[lid + 2] + dyn[(lid + 1) % lsz];
    if (v < 0.0f) flags[0] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = flags[0] ? 0.0f : v;
}
