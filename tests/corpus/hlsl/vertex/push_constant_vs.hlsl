// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// [[vk::push_constant]] transform and offset.
// CHECK: OpVariable %{{\w+}} PushConstant
struct Push
{
    float4x4 transform;
    float2 offset;
};

[[vk::push_constant]] Push pc;

float4 main(float2 pos : POSITION) : SV_Position
{
    return mul(pc.transform, float4(pos + pc.offset, 0, 1));
}
