// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// User functions with in/out/inout, overloads and a chain of calls in a pixel shader.
float3 tonemap(float3 c) { return c / (1.0 + c); }
float tonemap(float c) { return c / (1.0 + c); }

void split(float4 c, out float3 rgb, out float a)
{
    rgb = c.rgb;
    a = c.a;
}

void gammaInPlace(inout float3 c)
{
    c = pow(abs(c), 1.0 / 2.2);
}

float4 main(float4 color : COLOR0) : SV_Target
{
    float3 rgb;
    float a;
    split(color, rgb, a);
    rgb = tonemap(rgb);
    gammaInPlace(rgb);
    return float4(rgb, tonemap(a));
}
