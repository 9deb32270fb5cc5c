// Separable blur: Texture2D + SamplerState SampleLevel and RWTexture2D store.
Texture2D<float4> InputTex : register(t0);
SamplerState LinearClamp : register(s0);
RWTexture2D<float4> OutputTex : register(u0);

cbuffer BlurParams : register(b0) {
    float2 direction;
    float2 invSize;
    float weights[5];
};

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint w, h;
    OutputTex.GetDimensions(w, h);
    if (id.x >= w || id.y >= h) return;
    float2 uv = (float2(id.xy) + 0.5) * invSize;
    float4 acc = InputTex.SampleLevel(LinearClamp, uv, 0) * weights[0];
    [loop]
    for (int i = 1; i < 5; ++i) {
        float2 o = direction * invSize * i;
        acc += InputTex.SampleLevel(LinearClamp, uv + o, 0) * weights[i];
        acc += InputTex.SampleLevel(LinearClamp, uv - o, 0) * weights[i];
    }
    OutputTex[id.xy] = acc;
}
