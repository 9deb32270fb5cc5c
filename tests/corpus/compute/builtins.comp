#version 450
// Compute builtins over a 3-D grid: GlobalInvocationID, LocalInvocationID, WorkGroupID,
// NumWorkGroups, LocalInvocationIndex and WorkGroupSize, one record per invocation.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(std430, binding = 0) buffer Out { uint r[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
    uint lin = g.x + size.x * (g.y + size.y * g.z);
    uint o = lin * 16u;
    r[o + 0u] = g.x; r[o + 1u] = g.y; r[o + 2u] = g.z;
    r[o + 3u] = gl_LocalInvocationID.x; r[o + 4u] = gl_LocalInvocationID.y; r[o + 5u] = gl_LocalInvocationID.z;
    r[o + 6u] = gl_WorkGroupID.x; r[o + 7u] = gl_WorkGroupID.y; r[o + 8u] = gl_WorkGroupID.z;
    r[o + 9u] = gl_NumWorkGroups.x; r[o + 10u] = gl_NumWorkGroups.y; r[o + 11u] = gl_NumWorkGroups.z;
    r[o + 12u] = gl_LocalInvocationIndex;
    r[o + 13u] = gl_WorkGroupSize.x * 100u + gl_WorkGroupSize.y * 10u + gl_WorkGroupSize.z;
    r[o + 14u] = lin;
    r[o + 15u] = 0xC0FFEEu;
}
