// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// A cbuffer with a struct and an array read in a pixel shader.
// CHECK: Block
struct Fog
{
    float3 color;
    float density;
};

cbuffer Frame : register(b0)
{
    Fog fog;
    float4 palette[4];
    uint paletteIndex;
};

float4 main(float depth : DEPTH, float4 color : COLOR0) : SV_Target
{
    float f = exp(-fog.density * depth);
    float4 c = color * palette[paletteIndex % 4];
    return float4(lerp(fog.color, c.rgb, f), c.a);
}
