// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// lerp, saturate and clamp on floats, vectors and ints.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float a = In[0];
    float b = In[1];
    Out[0] = lerp(a, b, 0.25);
    float2 l = lerp(float2(0, 10), float2(4, 20), float2(0.5, 0.75));
    Out[1] = l.x;
    Out[2] = l.y;
    Out[3] = saturate(-0.5);
    Out[4] = saturate(1.5);
    Out[5] = saturate(0.25);
    Out[6] = clamp(b, 0.0, 5.0);
    Out[7] = clamp(a, 1.0, 5.0);
    Out[8] = (float)clamp(-7, -3, 3);
    uint3 u = clamp(uint3(0, 5, 10), 2u, 8u);
    Out[9] = (float)(u.x + u.y * 10 + u.z * 100);
    float3 s = saturate(float3(-1, 0.5, 2));
    Out[10] = s.x + s.y + s.z;
}
