// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// ConstantBuffer<T> with a struct of transforms, at register(b1, space2).
// CHECK: DescriptorSet 2
struct Transforms
{
    float4x4 world;
    float4 tint;
};

ConstantBuffer<Transforms> xf : register(b1, space2);

struct VSOut
{
    float4 pos : SV_Position;
    float4 color : COLOR0;
};

VSOut main(float3 pos : POSITION)
{
    VSOut o;
    o.pos = mul(xf.world, float4(pos, 1));
    o.color = xf.tint;
    return o;
}
