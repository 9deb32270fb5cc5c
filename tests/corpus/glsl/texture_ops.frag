#version 450
// Texture lookup variants: offsets, gradients, gathers, queries, bias, projective.
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform sampler2DArray texArray;
layout(binding = 2) uniform sampler2DShadow shadowTex;
layout(binding = 3) uniform samplerCube cube;
layout(binding = 4) uniform sampler3D vol;
layout(location = 0) in vec2 vUV;
layout(location = 1) in vec4 vProj;
layout(location = 0) out vec4 outColor;

const ivec2 gatherOffsets[4] = ivec2[](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 1));

void main() {
    vec4 c = texture(tex, vUV, 0.5);
    c += textureOffset(tex, vUV, ivec2(-1, 2));
    c += textureOffset(tex, vUV, ivec2(1, 1), -0.25);
    c += textureLod(tex, vUV, 2.0);
    c += textureLodOffset(tex, vUV, 1.0, ivec2(3, -3));
    c += textureGrad(tex, vUV, vec2(0.01, 0.0), vec2(0.0, 0.01));
    c += textureGradOffset(tex, vUV, dFdx(vUV), dFdy(vUV), ivec2(2, 0));
    c += textureProj(tex, vProj.xyz);
    c += textureProj(tex, vProj, 1.0);
    c += textureProjOffset(tex, vProj, ivec2(1, 0));
    c += textureProjLod(tex, vProj.xyz, 0.0);
    c += textureProjGrad(tex, vProj, vec2(0.01), vec2(0.02));
    c += textureProjLodOffset(tex, vProj, 1.0, ivec2(0, 1));
    c += textureProjGradOffset(tex, vProj.xyz, vec2(0.01), vec2(0.02), ivec2(-1, 0));
    c += texelFetch(tex, ivec2(vUV * 64.0), 0);
    c += texelFetchOffset(tex, ivec2(vUV * 64.0), 1, ivec2(1, 1));
    c += textureGather(tex, vUV);
    c += textureGather(tex, vUV, 2);
    c += textureGatherOffset(tex, vUV, ivec2(1, -1), 1);
    c += textureGatherOffsets(tex, vUV, gatherOffsets, 3);
    c += textureGather(shadowTex, vUV, 0.5);
    c += textureGatherOffset(shadowTex, vUV, 0.5, ivec2(1, 0));
    c += textureGather(texArray, vec3(vUV, 1.0), 1);
    c += textureGrad(cube, vec3(vUV, 1.0), vec3(0.01), vec3(0.02));
    c += textureGradOffset(vol, vec3(vUV, 0.5), vec3(0.01), vec3(0.0), ivec3(1, 0, -1));
    vec2 lod = textureQueryLod(tex, vUV);
    int levels = textureQueryLevels(tex) + textureQueryLevels(cube);
    ivec2 size = textureSize(tex, 0);
    ivec3 asize = textureSize(texArray, 1);
    ivec3 vsize = textureSize(vol, 0);
    c.x += lod.x + lod.y + float(levels + size.x + asize.z + vsize.y);
    outColor = c;
}
