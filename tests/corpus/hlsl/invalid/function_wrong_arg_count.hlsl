// ARGS: -T cs_6_0 -E main
// ERROR: 14:14: scale
// A user function called with too many arguments.
RWStructuredBuffer<int> Out : register(u0);

int scale(int x)
{
    return x * 3;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = scale(1, 2);
}
