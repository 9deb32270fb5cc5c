// ARGS: -T cs_6_0 -E main
// ERROR: 1:1: entry point
// -E main but no function named main: reported at 1:1.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void compute_main()
{
    Out[0] = 1;
}
