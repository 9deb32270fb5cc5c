// ARGS: -T cs_6_0 -E main
// ERROR: 10:17: expected ')'
// An if condition missing its `)`.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = Out[0];
    if ((a > 0) {
        Out[1] = a;
    }
}
