#version 450
// args: --target-env vulkan1.1
// Quad, clustered and relative-shuffle subgroup operations.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 32, local_size_y = 2) in;

layout(std430, binding = 0) buffer Buf { ivec4 iv[4]; vec2 v[]; } buf;

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 32u;
    vec2 x = buf.v[i];
    vec2 h = subgroupQuadSwapHorizontal(x);
    vec2 vert = subgroupQuadSwapVertical(x);
    vec2 d = subgroupQuadSwapDiagonal(x);
    vec2 q = subgroupQuadBroadcast(x, 2u);
    vec2 c4 = subgroupClusteredAdd(x, 4u);
    float cmax = subgroupClusteredMax(x.x, 8u);
    int cand = subgroupClusteredAnd(int(x.y), 2);
    vec2 up = subgroupShuffleUp(x, 1u);
    vec2 down = subgroupShuffleDown(x, 1u);
    buf.v[i] = h + vert + d + q + c4 + vec2(cmax, float(cand)) + up - down;
    subgroupBarrier();
    subgroupMemoryBarrierBuffer();
}
