#version 450
// Quad-domain evaluation with height-map displacement, fractional-odd spacing, cw winding.
layout(quads, fractional_odd_spacing, cw) in;
layout(location = 0) in vec3 tcWorld[];
layout(location = 1) in vec2 tcUV[];
layout(location = 2) patch in float tcPatchLod;
layout(binding = 0) uniform sampler2D heightMap;
layout(binding = 1) uniform Camera { mat4 viewProj; float heightScale; } cam;
layout(location = 0) out vec2 teUV;
layout(location = 1) out float teLod;

void main() {
    vec2 t = gl_TessCoord.xy;
    vec3 w = mix(mix(tcWorld[0], tcWorld[1], t.x), mix(tcWorld[3], tcWorld[2], t.x), t.y);
    vec2 uv = mix(mix(tcUV[0], tcUV[1], t.x), mix(tcUV[3], tcUV[2], t.x), t.y);
    w.y += textureLod(heightMap, uv, 0.0).r * cam.heightScale;
    teUV = uv;
    teLod = tcPatchLod + gl_TessLevelInner[0] * 0.0 + gl_TessLevelOuter[2] * 0.0;
    gl_Position = cam.viewProj * vec4(w, 1.0);
}
