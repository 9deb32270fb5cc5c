#version 450
// Tree reduction in shared memory with barriers.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Input { float data[]; } inp;
layout(std430, binding = 1) writeonly buffer Output { float partial[]; } outp;

shared float scratch[256];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    scratch[lid] = gid < uint(inp.data.length()) ? inp.data[gid] : 0.0;
    memoryBarrierShared();
    barrier();

    for (uint stride = gl_WorkGroupSize.x / 2u; stride > 0u; stride >>= 1) {
        if (lid < stride) {
            scratch[lid] += scratch[lid + stride];
        }
        memoryBarrierShared();
        barrier();
    }

    if (lid == 0u) {
        outp.partial[gl_WorkGroupID.x] = scratch[0];
    }
}
