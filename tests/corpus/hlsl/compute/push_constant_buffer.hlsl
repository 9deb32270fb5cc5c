// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// [[vk::push_constant]] on a ConstantBuffer<T>: a PushConstant block (int, float and uint4
// members at std430 offsets 0, 4, 16).
struct Push
{
    int base;
    float factor;
    uint4 mask;
};

[[vk::push_constant]] ConstantBuffer<Push> pc;
RWStructuredBuffer<float> Out : register(u0);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Out[id.x] = (float)(pc.base + (int)(pc.mask[id.x] & 0xFF)) * pc.factor;
}
