// ARGS: -T cs_6_0 -E main
// ERROR: 11:9: continue
// continue outside any loop.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = Out[0];
    if (a > 0)
        continue;
    Out[0] = a;
}
