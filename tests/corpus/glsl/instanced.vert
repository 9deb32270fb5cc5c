#version 450
// Per-instance data from an SSBO via gl_InstanceIndex; gl_VertexIndex-generated quad.
struct Instance {
    vec4 offsetScale;
    vec4 color;
    uint textureIndex;
    uint pad0, pad1, pad2;
};

layout(std430, binding = 0) readonly buffer Instances { Instance instances[]; };
layout(binding = 1) uniform Viewport { vec2 invSize; } vp;

layout(location = 0) out vec4 vColor;
layout(location = 1) out vec2 vUV;
layout(location = 2) flat out uint vTexture;

const vec2 corners[4] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 1));

void main() {
    Instance inst = instances[gl_InstanceIndex];
    vec2 c = corners[gl_VertexIndex & 3];
    vec2 pos = inst.offsetScale.xy + c * inst.offsetScale.zw;
    vColor = inst.color;
    vUV = c;
    vTexture = inst.textureIndex;
    gl_Position = vec4(pos * vp.invSize * 2.0 - 1.0, 0.0, 1.0);
}
