#version 460
// args: --target-env vulkan1.2
// Buffer references built from uvec2 addresses and pointer arithmetic on arrays.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Ints { int v; };
layout(buffer_reference, scalar) buffer Vec3s { vec3 v; };

layout(push_constant) uniform PC { uvec2 base; uvec2 other; } pc;

void main() {
    Ints p = Ints(pc.base);
    p = p + gl_GlobalInvocationID.x;
    p.v += 1;
    Vec3s q = Vec3s(pc.other);
    q[int(gl_GlobalInvocationID.x)].v = vec3(float(p.v));
    uvec2 back = uvec2(q);
    if (back.x == 0u) {
        p.v = -1;
    }
}
