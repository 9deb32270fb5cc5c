// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// mul(matrix, vector) with a cbuffer matrix: DXC's transposed matrices make it
// OpVectorTimesMatrix.
// CHECK: Block
// CHECK: OpVectorTimesMatrix
cbuffer Camera : register(b0)
{
    float4x4 mvp;
};

float4 main(float3 pos : POSITION) : SV_Position
{
    return mul(mvp, float4(pos, 1));
}
