// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// A tree reduction in groupshared memory with GroupMemoryBarrierWithGroupSync between steps;
// two groups, each writes its sum.
StructuredBuffer<uint> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

groupshared uint partial[64];

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID)
{
    partial[tid.x] = In[id.x];
    GroupMemoryBarrierWithGroupSync();
    for (uint stride = 32; stride > 0; stride >>= 1)
    {
        if (tid.x < stride)
            partial[tid.x] += partial[tid.x + stride];
        GroupMemoryBarrierWithGroupSync();
    }
    if (tid.x == 0)
        Out[gid.x] = partial[0];
}
