// Parallel reduction with groupshared memory and GroupMemoryBarrierWithGroupSync.
#define GROUP_SIZE 256
StructuredBuffer<float4> Input : register(t0);
RWStructuredBuffer<float4> Output : register(u0);

groupshared float4 sdata[GROUP_SIZE];

[numthreads(GROUP_SIZE, 1, 1)]
void main(uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    sdata[gi] = Input[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    [unroll]
    for (uint s = GROUP_SIZE / 2; s > 0; s >>= 1) {
        if (gi < s) {
            sdata[gi] += sdata[gi + s];
        }
        GroupMemoryBarrierWithGroupSync();
    }
    if (tid.x == 0) {
        Output[gid.x] = sdata[0];
    }
}
