#version 450
// args: --target-env vulkan1.2
// Bindless material textures with nonuniformEXT indexing.
#extension GL_EXT_nonuniform_qualifier : require
layout(set = 0, binding = 0) uniform texture2D textures[];
layout(set = 0, binding = 1) uniform sampler samplers[4];
layout(std430, set = 0, binding = 2) readonly buffer Materials { uvec4 materials[]; };
layout(location = 0) in vec2 vUV;
layout(location = 1) flat in uint vMaterial;
layout(location = 0) out vec4 outColor;

void main() {
    uvec4 m = materials[vMaterial];
    vec4 c = texture(nonuniformEXT(sampler2D(textures[m.x], samplers[m.y & 3u])), vUV);
    vec4 e = texture(sampler2D(textures[nonuniformEXT(m.z)], samplers[0]), vUV);
    outColor = c + e * float(m.w);
}
