// ARGS: -T cs_6_0 -E main
// ERROR: 11:1: '}'
// An extra `}` after a function.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
}
