// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Swizzles, write masks and compound assignment on vectors.
float4 main(float4 c : COLOR0) : SV_Target
{
    float4 o = c.wzyx;
    o.rg *= 2.0;
    o.b += o.r;
    o.a = c.a;
    o.xy = o.yx;
    return o;
}
