// ARGS: -T cs_6_0 -E main
// ERROR: 10:16: array size
// A local array whose size is not a constant.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int n = Out[0];
    int values[n];
    values[0] = 1;
    Out[1] = values[0];
}
