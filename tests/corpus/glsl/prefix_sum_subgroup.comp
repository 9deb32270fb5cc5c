#version 450
// args: --target-env vulkan1.1
// Workgroup prefix sum built from subgroup scans.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;

layout(std430, binding = 0) buffer Data { uint values[]; };
layout(std430, binding = 1) buffer Sums { uint blockSums[]; };

shared uint subgroupTotals[128];

void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint v = values[gid];
    uint inclusive = subgroupInclusiveAdd(v);
    uint exclusive = subgroupExclusiveAdd(v);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) {
        subgroupTotals[gl_SubgroupID] = inclusive;
    }
    barrier();
    if (gl_SubgroupID == 0u) {
        uint t = gl_SubgroupInvocationID < gl_NumSubgroups ? subgroupTotals[gl_SubgroupInvocationID] : 0u;
        t = subgroupExclusiveAdd(t);
        if (gl_SubgroupInvocationID < gl_NumSubgroups) {
            subgroupTotals[gl_SubgroupInvocationID] = t;
        }
    }
    barrier();
    values[gid] = exclusive + subgroupTotals[gl_SubgroupID];
    if (gl_LocalInvocationIndex == 0u) {
        blockSums[gl_WorkGroupID.x] = subgroupAdd(v) + subgroupMul(1u) + subgroupMin(v) + subgroupMax(v)
            + subgroupAnd(v) + subgroupOr(v) + subgroupXor(v);
    }
}
