// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Texture3D: a color-grading LUT sampled with a float3.
// CHECK: OpTypeImage %{{\w+}} 3D
Texture3D<float4> lut : register(t0);
SamplerState samp : register(s0);

float4 main(float4 color : COLOR0) : SV_Target
{
    return float4(lut.Sample(samp, color.rgb).rgb, color.a);
}
