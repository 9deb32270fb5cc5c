// ARGS: -T cs_6_0 -E main
// ERROR: 8:1: #elif
// #elif after the #else of the same conditional.
#if 0
#define X 1
#else
#define X 2
#elif 1
#define X 3
#endif

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = X;
}
