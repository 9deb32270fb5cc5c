// ARGS: -T cs_6_0 -E main
// ERROR: 9:26: expected ')'
// A call missing its `)`.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = max(1.0, 2.0;
}
