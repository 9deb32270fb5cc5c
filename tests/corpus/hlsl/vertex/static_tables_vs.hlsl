// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// static const arrays indexed by SV_VertexID (a quad from a table), and a static global.
static const float2 corners[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };
static float scale = 0.5;

float4 main(uint id : SV_VertexID) : SV_Position
{
    scale *= 2.0;
    return float4(corners[id % 4] * scale, 0, 1);
}
