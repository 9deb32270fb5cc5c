// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// GroupMemoryBarrierWithGroupSync, DeviceMemoryBarrier and AllMemoryBarrier: neighbours
// exchange values through groupshared memory and a buffer.
RWStructuredBuffer<uint> Out : register(u0);
RWStructuredBuffer<uint> Scratch : register(u1);

groupshared uint exchange[16];

[numthreads(16, 1, 1)]
void main(uint tid : SV_GroupIndex)
{
    exchange[tid] = tid * tid;
    Scratch[tid] = tid + 100;
    DeviceMemoryBarrier();
    AllMemoryBarrier();
    GroupMemoryBarrierWithGroupSync();
    uint left = exchange[(tid + 15) % 16];
    uint right = exchange[(tid + 1) % 16];
    Out[tid] = left + right;
}
