// args: --target-env vulkan1.1
// (HLSL cbuffer packing puts a float3 at offset 20: legal under relaxed block layout, core in Vulkan 1.1)
// Pixel shader: Texture2D + SamplerState, alpha clip.
Texture2D<float4> Albedo : register(t0);
Texture2D<float3> NormalMap : register(t1);
SamplerState Aniso : register(s0);

cbuffer Material : register(b2) {
    float4 BaseColor;
    float AlphaCutoff;
    float3 LightDir;
};

struct PSIn {
    float4 pos : SV_Position;
    float3 worldPos : TEXCOORD0;
    float3 normal : TEXCOORD1;
    float2 uv : TEXCOORD2;
    float4 color : COLOR0;
};

float4 main(PSIn input) : SV_Target {
    float4 c = Albedo.Sample(Aniso, input.uv) * BaseColor * input.color;
    clip(c.a - AlphaCutoff);
    float3 n = normalize(input.normal + NormalMap.Sample(Aniso, input.uv) * 2.0 - 1.0);
    float ndl = saturate(dot(n, -LightDir));
    return float4(c.rgb * (0.1 + ndl), c.a);
}
