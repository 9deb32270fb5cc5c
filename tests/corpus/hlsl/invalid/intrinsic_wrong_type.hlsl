// ARGS: -T cs_6_0 -E main
// ERROR: 11:14: cross
// cross() on float2 vectors (it takes float3).
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float2 a = float2(1, 0);
    float2 b = float2(0, 1);
    Out[0] = cross(a, b).x;
}
