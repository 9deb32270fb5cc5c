// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Linear blend skinning: a cbuffer array of float4x3 bones, BLENDINDICES (uint4) and
// BLENDWEIGHT inputs, a loop over influences.
// CHECK: ArrayStride
cbuffer Bones : register(b0)
{
    float4x3 bones[32];
    float4x4 viewProj;
};

struct VSIn
{
    float3 pos : POSITION;
    uint4 indices : BLENDINDICES;
    float4 weights : BLENDWEIGHT;
};

float4 main(VSIn i) : SV_Position
{
    float3 p = 0;
    for (int k = 0; k < 4; k++)
        p += mul(float4(i.pos, 1), bones[i.indices[k]]) * i.weights[k];
    return mul(viewProj, float4(p, 1));
}
