// ARGS: -T cs_6_0 -E main
// ERROR: 5:1: unterminated
// An #if without #endif.
#define LEVEL 2
#if LEVEL > 1
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = LEVEL;
}
