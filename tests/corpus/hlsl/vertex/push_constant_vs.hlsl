// ARGS: -T vs_6_0 -E main
// GLSLANG: differs: glslang ignores [[vk::push_constant]] on a struct variable and puts it in
// the $Global uniform block (it honours it on ConstantBuffer<T>, see pixel/push_constant_ps.hlsl)
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
