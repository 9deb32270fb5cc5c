// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// A StructuredBuffer of material structs indexed by a flat input.
// CHECK: BufferBlock
struct Material
{
    float4 color;
    float3 emissive;
    uint flags;
};

StructuredBuffer<Material> materials : register(t3);

float4 main(nointerpolation uint id : MATERIAL) : SV_Target
{
    Material m = materials[id];
    float4 c = m.color;
    if (m.flags & 1)
        c.rgb += m.emissive;
    return c;
}
