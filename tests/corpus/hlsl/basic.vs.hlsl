// Vertex shader with input/output structs and semantics.
cbuffer PerFrame : register(b0) {
    float4x4 ViewProj;
    float3 CameraPos;
    float Time;
};
cbuffer PerObject : register(b1) {
    float4x4 World;
    float4 Tint;
};

struct VSInput {
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
    float4 color : COLOR0;
};

struct VSOutput {
    float4 position : SV_Position;
    float3 worldPos : TEXCOORD0;
    float3 normal : TEXCOORD1;
    float2 uv : TEXCOORD2;
    float4 color : COLOR0;
};

VSOutput main(VSInput input) {
    VSOutput o;
    float4 wp = mul(World, float4(input.position, 1.0));
    o.worldPos = wp.xyz;
    o.position = mul(ViewProj, wp);
    o.normal = normalize(mul((float3x3)World, input.normal));
    o.uv = input.uv + float2(Time * 0.01, 0.0);
    o.color = input.color * Tint;
    return o;
}
