// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// abs on int and float (negative zero too), sign returning int for floats and ints (-1, 0, 1).
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float n = In[0];
    float z = In[1];
    Out[0] = abs(n);
    Out[1] = abs(-z);
    Out[2] = (float)abs(-7);
    Out[3] = (float)sign(n);
    Out[4] = (float)sign(z);
    Out[5] = (float)sign(12.5);
    Out[6] = (float)sign(-3);
    int3 s = sign(float3(-2, 0, 2));
    Out[7] = (float)(s.x * 100 + s.y * 10 + s.z);
    float2 av = abs(float2(-1.5, 2.5));
    Out[8] = av.x + av.y;
}
