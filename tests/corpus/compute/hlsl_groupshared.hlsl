// HLSL: a groupshared prefix sum (Hillis-Steele) with GroupMemoryBarrierWithGroupSync, using
// SV_GroupIndex, SV_GroupID and SV_DispatchThreadID.
[[vk::binding(0, 0)]] RWStructuredBuffer<uint> data;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> totals;
groupshared uint scan[32];

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 gid : SV_GroupID) {
    scan[gi] = data[id.x];
    GroupMemoryBarrierWithGroupSync();
    for (uint off = 1; off < 32; off <<= 1) {
        uint add = gi >= off ? scan[gi - off] : 0;
        GroupMemoryBarrierWithGroupSync();
        scan[gi] += add;
        GroupMemoryBarrierWithGroupSync();
    }
    data[id.x] = scan[gi];
    if (gi == 31) {
        totals[gid.x] = scan[31];
    }
}
