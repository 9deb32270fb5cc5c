// ARGS: -T cs_6_0 -E main
// ERROR: 6:6: numthreads
// A compute entry point without [numthreads].
RWStructuredBuffer<int> Out : register(u0);

void main()
{
    Out[0] = 1;
}
