// ARGS: -T ps_6_0 -E main
// ERROR: 6:19: undeclared
// Call of a function that was never declared.
float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    return float4(brighten(uv), 0, 1);
}
