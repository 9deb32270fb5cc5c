// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// [[vk::binding(b, s)]] on a texture and a sampler.
// CHECK: OpDecorate %{{\w+}} DescriptorSet 1
Texture2D tex : register(t0);
[[vk::binding(5, 1)]] Texture2D shadow;
[[vk::binding(6, 1)]] SamplerState shadowSampler;
SamplerState samp : register(s0);

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    return tex.Sample(samp, uv) * shadow.Sample(shadowSampler, uv).r;
}
