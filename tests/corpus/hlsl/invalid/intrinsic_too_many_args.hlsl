// ARGS: -T ps_6_0 -E main
// ERROR: 6:12: lerp
// lerp() with four arguments.
float4 main(float4 a : COLOR0, float4 b : COLOR1) : SV_Target
{
    return lerp(a, b, 0.5, 1.0);
}
