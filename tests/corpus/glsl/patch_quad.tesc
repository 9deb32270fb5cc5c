#version 450
// Quad-patch tessellation control with distance-based LOD.
layout(vertices = 4) out;
layout(location = 0) in vec3 vWorld[];
layout(location = 1) in vec2 vUV[];
layout(location = 0) out vec3 tcWorld[];
layout(location = 1) out vec2 tcUV[];
layout(location = 2) patch out float tcPatchLod;
layout(binding = 0) uniform Tess { vec3 eye; float minLevel; float maxLevel; float range; } tess;

float lodFor(vec3 a, vec3 b) {
    float d = distance(tess.eye, (a + b) * 0.5);
    return mix(tess.maxLevel, tess.minLevel, clamp(d / tess.range, 0.0, 1.0));
}

void main() {
    tcWorld[gl_InvocationID] = vWorld[gl_InvocationID];
    tcUV[gl_InvocationID] = vUV[gl_InvocationID];
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0) {
        gl_TessLevelOuter[0] = lodFor(vWorld[3], vWorld[0]);
        gl_TessLevelOuter[1] = lodFor(vWorld[0], vWorld[1]);
        gl_TessLevelOuter[2] = lodFor(vWorld[1], vWorld[2]);
        gl_TessLevelOuter[3] = lodFor(vWorld[2], vWorld[3]);
        gl_TessLevelInner[0] = max(gl_TessLevelOuter[1], gl_TessLevelOuter[3]);
        gl_TessLevelInner[1] = max(gl_TessLevelOuter[0], gl_TessLevelOuter[2]);
        tcPatchLod = gl_TessLevelInner[0];
    }
}
