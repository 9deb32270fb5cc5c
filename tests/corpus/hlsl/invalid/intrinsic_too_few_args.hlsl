// ARGS: -T cs_6_0 -E main
// ERROR: 10:14: dot
// dot() with one argument.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float3 a = float3(1, 2, 3);
    Out[0] = dot(a);
}
