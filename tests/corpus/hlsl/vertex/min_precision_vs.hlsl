// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// min16float and min16int values are 32-bit with RelaxedPrecision.
// CHECK: RelaxedPrecision
struct VSOut
{
    float4 pos : SV_Position;
    min16float4 color : COLOR0;
};

VSOut main(float3 pos : POSITION, min16float4 color : COLOR0)
{
    VSOut o;
    min16int k = 3;
    o.pos = float4(pos, 1);
    o.color = color * (min16float)k;
    return o;
}
