// ARGS: -T cs_6_0 -E main
// ERROR: 10:9: redefinition
// A local declared twice in one scope.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = 1;
    int a = 2;
    Out[0] = a;
}
