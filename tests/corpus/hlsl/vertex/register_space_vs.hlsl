// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// register(b2, space3): binding 2 in descriptor set 3.
// CHECK: DescriptorSet 3
cbuffer C : register(b2, space3)
{
    float4 scaleBias;
};

float4 main(float2 pos : POSITION) : SV_Position
{
    return float4(pos * scaleBias.xy + scaleBias.zw, 0, 1);
}
