// ARGS: -T ps_6_0 -E main -fspv-target-env=vulkan1.3
// GLSLANG: same
// Vulkan 1.3 (SPIR-V 1.6).
// CHECK: OpEntryPoint Fragment
Texture2D tex : register(t0);
SamplerState samp : register(s0);

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    return tex.Sample(samp, uv);
}
