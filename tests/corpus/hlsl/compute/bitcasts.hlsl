// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// asuint, asint and asfloat reinterpret bits (scalars and vectors).
StructuredBuffer<uint> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float f = asfloat(In[0]);
    Out[0] = asuint(f * 2.0);
    Out[1] = asuint(-1.0);
    Out[2] = (uint)asint(In[1]);
    Out[3] = asuint(asint(In[1]) + 1);
    float2 v = asfloat(uint2(In[0], In[2]));
    Out[4] = asuint(v.x + v.y);
    int2 iv = asint(float2(1.0, -0.0));
    Out[5] = (uint)iv.x;
    Out[6] = (uint)iv.y;
    Out[7] = asuint(asfloat(0x7F800000u));
}
