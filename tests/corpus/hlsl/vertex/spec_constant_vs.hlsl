// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// [[vk::constant_id(3)]] specialization constants used in arithmetic.
// CHECK: SpecId 3
[[vk::constant_id(3)]] const float Scale = 2.0;
[[vk::constant_id(4)]] const bool FlipY = true;

float4 main(float3 pos : POSITION) : SV_Position
{
    float3 p = pos * Scale;
    if (FlipY)
        p.y = -p.y;
    return float4(p, 1);
}
