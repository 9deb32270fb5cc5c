// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// row_major in HLSL is ColMajor on DXC's transposed SPIR-V matrix.
// CHECK: OpMemberDecorate %{{[\w.]+}} 0 ColMajor
cbuffer Camera : register(b0)
{
    row_major float4x4 viewProj;
};

float4 main(float3 pos : POSITION) : SV_Position
{
    return mul(float4(pos, 1), viewProj);
}
