// ARGS: -T cs_6_0 -E main
// ERROR: 7:1: numthreads
// [numthreads] with a non-constant argument.
RWStructuredBuffer<int> Out : register(u0);
int width;

[numthreads(width, 1, 1)]
void main()
{
    Out[0] = 1;
}
