// ARGS: -T cs_6_0 -E main
// ERROR: 9:15: not supported yet
// Wave intrinsics are outside this frontend's scope.
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(32, 1, 1)]
void main(uint id : SV_DispatchThreadID)
{
    Out[id] = WaveActiveSum(id);
}
