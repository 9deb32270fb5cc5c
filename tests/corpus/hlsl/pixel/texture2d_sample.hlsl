// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Texture2D.Sample with a SamplerState: OpSampledImage and OpImageSampleImplicitLod.
// CHECK: OpSampledImage
// CHECK: OpImageSampleImplicitLod
Texture2D albedo : register(t0);
SamplerState samp : register(s0);

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    return albedo.Sample(samp, uv);
}
