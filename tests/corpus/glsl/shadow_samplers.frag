#version 450
// Depth-comparison samplers, projective and explicit-gradient variants, PCF filtering.
layout(location = 0) in vec4 vShadowCoord;
layout(location = 1) in vec3 vDir;
layout(location = 2) in float vLayer;
layout(location = 0) out vec4 outColor;

layout(binding = 0) uniform sampler2DShadow shadowMap;
layout(binding = 1) uniform samplerCubeShadow pointShadow;
layout(binding = 2) uniform sampler2DArrayShadow cascades;
layout(binding = 3) uniform sampler1DShadow lineShadow;
layout(binding = 4) uniform sampler1DArrayShadow lineArrayShadow;
layout(binding = 5) uniform samplerCubeArrayShadow cubeArrayShadow;

float pcf(vec3 coord) {
    vec2 texel = 1.0 / vec2(textureSize(shadowMap, 0));
    float sum = 0.0;
    for (int y = -1; y <= 1; ++y) {
        for (int x = -1; x <= 1; ++x) {
            sum += texture(shadowMap, coord + vec3(vec2(x, y) * texel, 0.0));
        }
    }
    return sum / 9.0;
}

void main() {
    vec3 proj = vShadowCoord.xyz / vShadowCoord.w;
    float s = pcf(proj);
    s *= textureProj(shadowMap, vShadowCoord);
    s *= textureOffset(shadowMap, proj, ivec2(1, -1));
    s *= textureLod(shadowMap, proj, 0.0);
    s *= textureGrad(shadowMap, proj, dFdx(proj.xy), dFdy(proj.xy));
    s *= texture(pointShadow, vec4(normalize(vDir), length(vDir) * 0.01));
    s *= texture(cascades, vec4(proj.xy, vLayer, proj.z));
    s *= texture(lineShadow, vec3(proj.x, 0.0, proj.z));
    s *= texture(lineArrayShadow, vec3(proj.x, vLayer, proj.z));
    s *= texture(cubeArrayShadow, vec4(vDir, vLayer), proj.z);
    s *= textureProjLod(shadowMap, vShadowCoord, 0.0);
    outColor = vec4(vec3(s), 1.0);
}
