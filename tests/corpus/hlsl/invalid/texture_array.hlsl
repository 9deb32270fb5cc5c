// ARGS: -T ps_6_0 -E main
// ERROR: 4:1: not supported yet
// Texture2DArray is outside this frontend's scope.
Texture2DArray layers : register(t0);
SamplerState samp : register(s0);

float4 main(float3 uvw : TEXCOORD0) : SV_Target
{
    return layers.Sample(samp, uvw);
}
