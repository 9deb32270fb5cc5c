// ARGS: -T cs_6_0 -E main
// ERROR: 9:5: unknown type
// A misspelt type name.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    flaot4 v = 1;
    Out[0] = v.x;
}
