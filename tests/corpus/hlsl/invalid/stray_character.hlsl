// ARGS: -T cs_6_0 -E main
// ERROR: 9:16: '@'
// A character that is no HLSL token.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 3 @ 4;
}
