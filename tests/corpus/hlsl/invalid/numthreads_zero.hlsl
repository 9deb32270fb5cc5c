// ARGS: -T cs_6_0 -E main
// ERROR: 6:1: numthreads
// [numthreads] with a zero dimension.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(0, 1, 1)]
void main()
{
    Out[0] = 1;
}
