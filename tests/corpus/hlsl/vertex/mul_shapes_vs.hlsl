// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// mul() in each shape: matrix*matrix (OpMatrixTimesMatrix), vector*matrix, matrix*vector,
// scalar*matrix, vector*vector.
// CHECK: OpMatrixTimesMatrix
cbuffer C : register(b0)
{
    float4x4 world;
    float4x4 view;
    float3x3 normalMatrix;
};

struct VSOut
{
    float4 pos : SV_Position;
    float3 n : NORMAL;
    float k : K;
};

VSOut main(float3 pos : POSITION, float3 n : NORMAL)
{
    float4x4 wv = mul(view, world);
    VSOut o;
    o.pos = mul(wv, float4(pos, 1));
    o.n = mul(n, mul(2.0, normalMatrix));
    o.k = mul(n, pos);
    return o;
}
