// ARGS: -T vs_6_0 -E main
// ERROR: 9:12: sampling with implicit lod is only allowed in fragment and compute shaders
// Implicit-LOD sampling needs derivatives, which a vertex shader does not have (DXC's error).
Texture2DArray layers : register(t0);
SamplerState samp : register(s0);

float4 main(float3 uvw : TEXCOORD0) : SV_Position
{
    return layers.Sample(samp, uvw);
}
