// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// The method forms of the interlocked operations on a RWByteAddressBuffer, from 32
// invocations: the totals do not depend on the order.
RWByteAddressBuffer Counters : register(u0);

[numthreads(32, 1, 1)]
void main(uint tid : SV_GroupIndex)
{
    uint old;
    Counters.InterlockedAdd(0, tid, old);
    Counters.InterlockedMax(4, tid * 3);
    Counters.InterlockedMin(8, 100 - tid);
    Counters.InterlockedOr(12, 1u << tid);
    Counters.InterlockedXor(16, 1u << (tid % 4));
}
