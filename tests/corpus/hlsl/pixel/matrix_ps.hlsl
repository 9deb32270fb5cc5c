// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// A float3x3 color matrix from a cbuffer applied with mul(vector, matrix) and mul(matrix,
// vector).
cbuffer Grade : register(b0)
{
    float3x3 colorMatrix;
    row_major float3x3 hueMatrix;
};

float4 main(float4 c : COLOR0) : SV_Target
{
    float3 graded = mul(colorMatrix, c.rgb);
    graded = mul(graded, hueMatrix);
    return float4(graded, c.a);
}
