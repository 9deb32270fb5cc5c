// ARGS: -T cs_6_0 -E main
// ERROR: 11:14: unterminated
// A function-like macro invocation whose argument list never closes.
#define ADD(a, b) ((a) + (b))

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = ADD(1, 2;
}
