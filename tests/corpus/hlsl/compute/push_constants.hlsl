// ARGS: -T cs_6_0 -E main
// GLSLANG: differs: glslang ignores [[vk::push_constant]] on a struct variable and puts it in
// the $Global uniform block (it honours it on ConstantBuffer<T>, see push_constant_buffer.hlsl)
// [[vk::push_constant]] on a struct variable: a PushConstant block.
struct Push
{
    float scale;
    uint count;
    float2 bias;
};

[[vk::push_constant]] Push pc;
RWStructuredBuffer<float> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x < pc.count)
        Out[id.x] = (float)id.x * pc.scale + pc.bias.x - pc.bias.y;
}
