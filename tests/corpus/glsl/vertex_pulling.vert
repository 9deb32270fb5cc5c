#version 450
// Programmable vertex pulling from raw SSBO words with unpack helpers.
layout(std430, binding = 0) readonly buffer Indices { uint indices[]; };
layout(std430, binding = 1) readonly buffer Positions { float positions[]; };
layout(std430, binding = 2) readonly buffer Packed { uint packedAttribs[]; };
layout(binding = 3) uniform Transform { mat4 mvp; } xf;

layout(location = 0) out vec2 vUV;
layout(location = 1) out vec4 vColor;
layout(location = 2) out vec3 vNormal;

void main() {
    uint index = indices[gl_VertexIndex];
    vec3 pos = vec3(positions[index * 3u], positions[index * 3u + 1u], positions[index * 3u + 2u]);
    uint a0 = packedAttribs[index * 3u];
    uint a1 = packedAttribs[index * 3u + 1u];
    uint a2 = packedAttribs[index * 3u + 2u];
    vUV = unpackHalf2x16(a0);
    vColor = unpackUnorm4x8(a1);
    vec2 oct = unpackSnorm2x16(a2);
    vec3 n = vec3(oct, 1.0 - abs(oct.x) - abs(oct.y));
    if (n.z < 0.0) {
        n.xy = (1.0 - abs(n.yx)) * sign(n.xy);
    }
    vNormal = normalize(n);
    vec4 extra = unpackSnorm4x8(a1) + vec4(unpackUnorm2x16(a2), 0.0, 0.0);
    gl_Position = xf.mvp * vec4(pos, 1.0) + extra * 0.0;
}
