// ARGS: -T cs_6_0 -E main -fspv-target-env=vulkan1.1
// GLSLANG: same
// Vulkan 1.1 (SPIR-V 1.3): buffers are still Uniform + BufferBlock.
RWStructuredBuffer<int> Out : register(u0);
cbuffer C : register(b1)
{
    int4 v;
};

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = v.x + v.y + v.z + v.w;
    Out[1] = v.x * v.w;
}
