#version 450
// Sparse residency lookups and LOD clamping (MinLod image operand).
#extension GL_ARB_sparse_texture2 : require
#extension GL_ARB_sparse_texture_clamp : require
layout(binding = 0) uniform sampler2D sparseTex;
layout(binding = 1) uniform sampler3D sparseVol;
layout(binding = 2, rgba8) uniform readonly image2D sparseImage;
layout(location = 0) in vec2 vUV;
layout(location = 0) out vec4 outColor;

void main() {
    vec4 texel;
    int code = sparseTextureARB(sparseTex, vUV, texel);
    if (!sparseTexelsResidentARB(code)) {
        code = sparseTextureLodARB(sparseTex, vUV, 4.0, texel);
    }
    vec4 clamped = textureClampARB(sparseTex, vUV, 2.0);
    vec4 clampedBias = textureClampARB(sparseTex, vUV, 1.0, 0.5);
    vec4 v;
    int c2 = sparseTextureClampARB(sparseVol, vec3(vUV, 0.5), 1.0, v);
    vec4 g;
    int c3 = sparseTextureGatherARB(sparseTex, vUV, g, 1);
    vec4 f;
    int c4 = sparseTexelFetchARB(sparseTex, ivec2(vUV * 256.0), 0, f);
    vec4 im;
    int c5 = sparseImageLoadARB(sparseImage, ivec2(vUV * 256.0), im);
    vec4 gr = textureGradClampARB(sparseTex, vUV, dFdx(vUV), dFdy(vUV), 1.5);
    bool allResident = sparseTexelsResidentARB(c2) && sparseTexelsResidentARB(c3)
        && sparseTexelsResidentARB(c4) && sparseTexelsResidentARB(c5);
    outColor = texel + clamped + clampedBias + (allResident ? v + g + f + im : vec4(1, 0, 1, 1)) + gr;
}
