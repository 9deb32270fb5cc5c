// Interlocked* atomics on RWByteAddressBuffer, RWStructuredBuffer, RWTexture and groupshared.
RWByteAddressBuffer Counters : register(u0);
RWStructuredBuffer<int> Values : register(u1);
RWTexture2D<uint> Grid : register(u2);
groupshared uint gsCount;

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    if (gi == 0) gsCount = 0;
    GroupMemoryBarrierWithGroupSync();

    uint orig;
    InterlockedAdd(gsCount, 1, orig);
    Counters.InterlockedAdd(0, 1u);
    Counters.InterlockedMax(4, id.x, orig);
    Counters.InterlockedMin(8, id.x);
    Counters.InterlockedOr(12, 1u << (id.x & 31));
    Counters.InterlockedAnd(16, ~(1u << (id.x & 31)));
    Counters.InterlockedXor(20, id.x);
    uint prev;
    Counters.InterlockedExchange(24, id.x, prev);
    Counters.InterlockedCompareExchange(28, 0u, id.x, prev);
    Counters.InterlockedCompareStore(32, 5u, 6u);

    InterlockedMin(Values[id.x % 16], -int(id.x));
    InterlockedMax(Values[16 + id.x % 16], int(id.x));
    InterlockedAdd(Grid[uint2(id.x % 8, id.x / 8)], 1u, orig);
    InterlockedCompareExchange(Grid[uint2(0, 0)], 0u, 1u, orig);
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) Counters.Store(36, gsCount + orig);
}
