// args: -g
// Pixel shader compiled with -g (HLSL source language in OpSource, OpLine).
Texture2D<float4> Tex : register(t0);
SamplerState Samp : register(s0);

float3 desaturate(float3 c, float amount) {
    float l = dot(c, float3(0.299, 0.587, 0.114));
    return lerp(c, l.xxx, amount);
}

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    float4 c = Tex.Sample(Samp, uv);
    c.rgb = desaturate(c.rgb, 0.5);
    return c;
}
