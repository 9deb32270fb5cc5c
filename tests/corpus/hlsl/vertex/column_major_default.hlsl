// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Matrices are column_major by default, which is RowMajor on the transposed SPIR-V matrix;
// mul(vector, matrix) is OpMatrixTimesVector.
// CHECK: OpMemberDecorate %{{[\w.]+}} 0 RowMajor
// CHECK: OpMatrixTimesVector
cbuffer Camera : register(b0)
{
    float4x4 world;
    column_major float4x4 view;
};

float4 main(float3 pos : POSITION) : SV_Position
{
    return mul(mul(float4(pos, 1), world), view);
}
