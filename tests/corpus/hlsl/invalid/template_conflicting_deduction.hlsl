// ARGS: -T cs_6_0 -E main
// ERROR: 15:14: conflicting types deduced for the template parameter 'T'
// Both arguments must give T the same type (DXC: "deduced conflicting types for parameter 'T'").
RWStructuredBuffer<float> Out : register(u0);

template<typename T>
T larger(T a, T b)
{
    return a > b ? a : b;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = larger(3, 2.5f);
}
