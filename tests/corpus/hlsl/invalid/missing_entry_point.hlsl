// ARGS: -T cs_6_0 -E main
// ERROR: file: entry point
// -E main but no function named main: reported for the file, without a place.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void compute_main()
{
    Out[0] = 1;
}
