// ARGS: -T cs_6_0 -E main
// ERROR: 9:15: Vulkan 1.1 is required for Wave Operation
// Wave intrinsics need Vulkan 1.1 (SPIR-V 1.3); the default target is Vulkan 1.0 (DXC's error).
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(32, 1, 1)]
void main(uint id : SV_DispatchThreadID)
{
    Out[id] = WaveActiveSum(id);
}
