// ARGS: -T cs_6_0 -E main
// ERROR: 10:16: recursi
// A function that calls itself (HLSL has no recursion).
RWStructuredBuffer<int> Out : register(u0);

int factorial(int n)
{
    if (n <= 1)
        return 1;
    return n * factorial(n - 1);
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = factorial(5);
}
