// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Vectors of every size (including size 1) and element type: construction, component
// access, element-wise arithmetic, and indexing with a variable.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int k = In[0];
    float1 a = 2.5;
    float2 b = float2(1.0, 2.0);
    float3 c = float3(b, 3.0);
    float4 d = float4(c, 4.0);
    int2 i2 = int2(-1, k);
    uint3 u3 = uint3(1, 2, 3);
    bool2 b2 = bool2(true, false);
    vector<float, 4> g = d * 2;
    Out[0] = a.x + a;
    Out[1] = b.y;
    Out[2] = c.z * b.x;
    Out[3] = d[k];
    Out[4] = (float)(i2.x + i2.y);
    Out[5] = (float)(u3.x * u3.z);
    Out[6] = b2.x ? 1.0 : 0.0;
    Out[7] = g.w;
    float4 e = d;
    e[k] = 10.0;
    Out[8] = e.x + e.y + e.z + e.w;
    Out[9] = (d + 1.0)[3];
}
