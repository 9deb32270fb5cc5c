// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Texture1D: a 1-D image sampled with a float coordinate (a gradient ramp lookup).
// CHECK: OpCapability Sampled1D
// CHECK: OpTypeImage %{{\w+}} 1D
Texture1D<float4> ramp : register(t0);
SamplerState samp : register(s0);

float4 main(float t : TEXCOORD0) : SV_Target
{
    return ramp.Sample(samp, saturate(t));
}
