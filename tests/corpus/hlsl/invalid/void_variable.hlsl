// ARGS: -T cs_6_0 -E main
// ERROR: 9:10: void
// A variable of type void.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    void nothing;
    Out[0] = 1;
}
