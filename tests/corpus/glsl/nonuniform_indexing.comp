#version 450
// args: --target-env vulkan1.2
// Descriptor indexing: runtime descriptor arrays with nonuniformEXT.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 32) in;

layout(set = 0, binding = 0) uniform sampler2D textures[];
layout(set = 0, binding = 1, rgba8) uniform image2D images[];
layout(set = 1, binding = 0) buffer Buffers { vec4 data[]; } buffers[];
layout(set = 1, binding = 1) uniform UBOs { vec4 tint; } ubos[8];

layout(push_constant) uniform PC { uint count; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint tex = i % pc.count;
    vec4 c = textureLod(textures[nonuniformEXT(tex)], vec2(0.5), 0.0);
    c *= ubos[nonuniformEXT(i & 7u)].tint;
    buffers[nonuniformEXT(tex)].data[i] = c;
    imageStore(images[nonuniformEXT(tex)], ivec2(i, 0), c);
}
