// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// 64 invocations add into groupshared counters with InterlockedAdd/Max/Or; after the barrier
// one invocation writes the totals, which do not depend on the order.
RWStructuredBuffer<uint> Out : register(u0);

groupshared uint sum;
groupshared uint biggest;
groupshared uint bits;

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex)
{
    if (tid == 0)
    {
        sum = 0;
        biggest = 0;
        bits = 0;
    }
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(sum, tid + 1);
    InterlockedMax(biggest, (tid * 37) % 64);
    InterlockedOr(bits, 1u << (tid % 32));
    GroupMemoryBarrierWithGroupSync();
    if (tid == 0)
    {
        Out[0] = sum;
        Out[1] = biggest;
        Out[2] = bits;
    }
}
