// ARGS: -T cs_6_0 -E main
// ERROR: 6:1: not supported yet
// User templates are outside this frontend's scope.
RWStructuredBuffer<int> Out : register(u0);

template<typename T>
T twice(T x)
{
    return x * 2;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = twice<int>(3);
}
