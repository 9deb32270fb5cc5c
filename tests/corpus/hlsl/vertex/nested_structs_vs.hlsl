// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Nested structs in a cbuffer and in the output.
struct Material
{
    float4 albedo;
    float roughness;
};

struct Instance
{
    float4x4 world;
    Material mat;
};

cbuffer Scene : register(b0)
{
    Instance inst;
};

struct Surface
{
    float4 albedo : ALBEDO;
    float roughness : ROUGHNESS;
};

struct VSOut
{
    float4 pos : SV_Position;
    Surface s;
};

VSOut main(float3 pos : POSITION)
{
    VSOut o;
    o.pos = mul(inst.world, float4(pos, 1));
    o.s.albedo = inst.mat.albedo;
    o.s.roughness = inst.mat.roughness;
    return o;
}
