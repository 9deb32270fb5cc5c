// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// typedefs of vectors, matrices and the output struct.
typedef float4 Position;
typedef float4x4 Matrix;
struct Output
{
    Position pos : SV_Position;
};
typedef Output VSOut;

cbuffer C : register(b0)
{
    Matrix m;
};

VSOut main(float3 p : POSITION)
{
    VSOut o;
    o.pos = mul(m, Position(p, 1));
    return o;
}
