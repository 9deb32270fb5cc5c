// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// SampleLevel is OpImageSampleExplicitLod with a Lod operand.
// CHECK: OpImageSampleExplicitLod %{{\w+}} %{{\w+}} %{{\w+}} Lod
Texture2D<float4> tex : register(t0);
SamplerState samp : register(s0);

float4 main(float2 uv : TEXCOORD0, float lod : LOD) : SV_Target
{
    return tex.SampleLevel(samp, uv, lod) + tex.SampleLevel(samp, uv, 2.0) * 0.5;
}
