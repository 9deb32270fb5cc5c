// ARGS: -T cs_6_0 -E main
// ERROR: 10:5: else
// An `else` with no `if` before it.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
    else
        Out[0] = 2;
}
