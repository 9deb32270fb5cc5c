// ARGS: -T ps_6_0 -E main
// ERROR: 7:16: undeclared identifier
// ERROR: 12:29: undeclared identifier
// Undeclared names in two functions: both reported.
float3 shade(float3 n)
{
    return n * lightColor;
}

float4 main(float3 n : NORMAL) : SV_Target
{
    return float4(shade(n), opacity);
}
