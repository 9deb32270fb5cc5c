// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Loose globals ($Globals) next to an explicit texture binding.
// CHECK: Block
Texture2D tex : register(t0);
SamplerState samp : register(s0);
float4 g_tint;
float g_exposure;

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    return tex.Sample(samp, uv) * g_tint * g_exposure;
}
