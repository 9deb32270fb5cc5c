// ARGS: -T cs_6_0 -E main
// ERROR: 10:5: assign
// Assignment to a const local.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    const int k = 3;
    k = 4;
    Out[0] = k;
}
