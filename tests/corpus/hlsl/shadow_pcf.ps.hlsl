// Shadow map PCF using SamplerComparisonState and loops with offsets.
Texture2D<float> ShadowMap : register(t0);
SamplerComparisonState ShadowSamp : register(s0);
cbuffer Light : register(b0) { float4x4 LightViewProj; float2 TexelSize; float Bias; };

float4 main(float4 pos : SV_Position, float3 world : TEXCOORD0) : SV_Target {
    float4 lp = mul(LightViewProj, float4(world, 1));
    float3 proj = lp.xyz / lp.w;
    float2 uv = proj.xy * float2(0.5, -0.5) + 0.5;
    float sum = 0;
    [unroll]
    for (int y = -2; y <= 2; ++y)
        [unroll]
        for (int x = -2; x <= 2; ++x)
            sum += ShadowMap.SampleCmpLevelZero(ShadowSamp, uv + float2(x, y) * TexelSize, proj.z - Bias);
    return float4((sum / 25.0).xxx, 1);
}
