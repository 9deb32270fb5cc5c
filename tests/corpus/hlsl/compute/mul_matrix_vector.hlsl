// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// mul(M, v): v is a column vector; a float2x3 times a float3 gives a float2.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float2x3 m = float2x3(In[0], In[1], In[2], In[3], In[4], In[5]);
    float3 v = float3(1, 10, 100);
    float2 r = mul(m, v);
    Out[0] = r.x;
    Out[1] = r.y;
    float4x4 t = float4x4(1, 0, 0, 5,
                          0, 1, 0, 6,
                          0, 0, 1, 7,
                          0, 0, 0, 1);
    float4 p = mul(t, float4(1, 2, 3, 1));
    Out[2] = p.x;
    Out[3] = p.y;
    Out[4] = p.z;
    Out[5] = p.w;
}
