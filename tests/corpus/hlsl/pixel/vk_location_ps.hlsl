// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// [[vk::location]] on pixel shader inputs and outputs.
// CHECK: OpDecorate %{{[\w.]+}} Location 7
struct PSIn
{
    [[vk::location(7)]] float4 color : COLOR0;
    [[vk::location(2)]] float2 uv : TEXCOORD0;
};

[[vk::location(0)]] float4 main(PSIn i) : SV_Target
{
    return i.color * i.uv.x;
}
