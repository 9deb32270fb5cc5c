// ARGS: -T cs_6_0 -E main
// ERROR: 10:18: undeclared identifier
// Use of a variable that was never declared.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = 1;
    Out[0] = a + missing;
}
