// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// dot() of float vectors (OpDot) and of int and uint vectors (multiplies and adds).
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float3 a = float3(In[0], In[1], In[2]);
    float3 b = float3(4, 5, 6);
    Out[0] = dot(a, b);
    Out[1] = dot(a.xy, float2(-1, 1));
    Out[2] = dot(float4(a, 1), float4(1, 1, 1, 10));
    int3 i = int3(1, -2, 3);
    Out[3] = (float)dot(i, int3(4, 5, -6));
    uint2 u = uint2(7, 8);
    Out[4] = (float)dot(u, uint2(2, 3));
    Out[5] = dot(float2(In[0], 2), float2(3, 0.5));
}
