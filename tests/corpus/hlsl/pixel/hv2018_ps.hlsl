// ARGS: -T ps_6_0 -E main -HV 2018
// GLSLANG: same
// -HV 2018 in a pixel shader: ||, && and ?: evaluate both sides.
float4 main(float4 c : COLOR0) : SV_Target
{
    bool dark = c.r < 0.1 || c.g < 0.1;
    bool clear = c.a > 0.9 && !dark;
    return clear ? c : (dark ? float4(0, 0, 0, 1) : c * 0.5);
}
