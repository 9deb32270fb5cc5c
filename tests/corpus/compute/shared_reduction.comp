#version 450
// Workgroup reduction in shared memory with barriers: a tree sum, min and max per workgroup;
// only correct if every barrier waits for the whole workgroup.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uvec4 r[]; };
shared uint s_sum[64];
shared uint s_min[64];
shared uint s_max[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint x = v[gl_GlobalInvocationID.x];
    s_sum[l] = x;
    s_min[l] = x;
    s_max[l] = x;
    barrier();
    for (uint stride = 32u; stride > 0u; stride >>= 1) {
        if (l < stride) {
            s_sum[l] += s_sum[l + stride];
            s_min[l] = min(s_min[l], s_min[l + stride]);
            s_max[l] = max(s_max[l], s_max[l + stride]);
        }
        barrier();
    }
    if (l == 0u) {
        r[gl_WorkGroupID.x] = uvec4(s_sum[0], s_min[0], s_max[0], gl_NumWorkGroups.x);
    }
}
