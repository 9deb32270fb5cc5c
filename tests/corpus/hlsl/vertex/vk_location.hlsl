// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// [[vk::location(N)]] overrides the declaration-order location.
// CHECK: OpDecorate %{{[\w.]+}} Location 4
struct VSIn
{
    [[vk::location(4)]] float3 pos : POSITION;
    [[vk::location(0)]] float4 color : COLOR;
};

struct VSOut
{
    float4 pos : SV_Position;
    [[vk::location(3)]] float4 color : COLOR;
};

VSOut main(VSIn i)
{
    VSOut o;
    o.pos = float4(i.pos, 1);
    o.color = i.color;
    return o;
}
