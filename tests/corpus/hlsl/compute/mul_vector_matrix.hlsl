// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// mul(v, M): v is a row vector; a float2 times a float2x3 gives a float3.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float2x3 m = float2x3(In[0], In[1], In[2], In[3], In[4], In[5]);
    float2 v = float2(1, 10);
    float3 r = mul(v, m);
    Out[0] = r.x;
    Out[1] = r.y;
    Out[2] = r.z;
    float3x3 s = float3x3(2, 0, 0, 0, 3, 0, 1, 1, 1);
    float3 q = mul(float3(1, 2, 3), s);
    Out[3] = q.x;
    Out[4] = q.y;
    Out[5] = q.z;
}
