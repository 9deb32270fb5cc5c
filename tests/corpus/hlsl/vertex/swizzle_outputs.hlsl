// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Swizzled reads and write masks building the outputs.
struct VSOut
{
    float4 pos : SV_Position;
    float4 color : COLOR0;
};

VSOut main(float4 p : POSITION, float4 c : COLOR0)
{
    VSOut o;
    o.pos.xy = p.yx;
    o.pos.zw = float2(0.5, 1);
    o.color = c.bgra;
    o.color.a *= 0.5;
    return o;
}
