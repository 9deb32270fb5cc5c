// TextureCubeArray, Texture2DArray and Texture1D sampling in a pixel shader.
TextureCubeArray<float4> Probes : register(t0);
Texture2DArray<float4> Decals : register(t1);
Texture1D<float4> Ramp : register(t2);
SamplerState Linear : register(s0);
cbuffer ProbeSel : register(b0) { uint ProbeIndex; uint DecalIndex; };

float4 main(float4 pos : SV_Position, float3 n : NORMAL, float2 uv : TEXCOORD0) : SV_Target {
    float4 env = Probes.SampleLevel(Linear, float4(n, ProbeIndex), 2.0);
    float4 decal = Decals.Sample(Linear, float3(uv, DecalIndex));
    float4 ramp = Ramp.Sample(Linear, saturate(n.y * 0.5 + 0.5));
    return lerp(env, decal, decal.a) * ramp;
}
