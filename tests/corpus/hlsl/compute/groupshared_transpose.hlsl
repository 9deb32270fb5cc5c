// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// A 2-D groupshared tile: each invocation writes one element, and after the barrier reads
// the transposed one (an 8x8 matrix transposed by one group).
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

groupshared float tile[8][8];

[numthreads(8, 8, 1)]
void main(uint3 tid : SV_GroupThreadID, uint index : SV_GroupIndex)
{
    tile[tid.y][tid.x] = In[index];
    GroupMemoryBarrierWithGroupSync();
    Out[index] = tile[tid.x][tid.y];
}
