// ARGS: -T cs_6_0 -E main
// ERROR: 14:14: undeclared identifier
// A variable used after the block that declared it.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    for (int i = 0; i < 4; i++)
    {
        int inner = i * 2;
        Out[i] = inner;
    }
    Out[4] = inner;
}
