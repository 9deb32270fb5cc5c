// ARGS: -T cs_6_0 -E main -fspv-target-env=vulkan1.2
// GLSLANG: fails: glslang 12 still decorates HLSL buffers BufferBlock for Vulkan 1.2 (SPIR-V
// 1.5), which spirv-val rejects
// Vulkan 1.2 (SPIR-V 1.5): structured and byte-address buffers in the StorageBuffer storage
// class, interface listing every global.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);
RWByteAddressBuffer Raw : register(u2);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Out[id.x] = In[id.x] * In[id.x];
    Raw.Store(id.x * 4, asuint(In[id.x]) ^ 0x80000000u);
}
