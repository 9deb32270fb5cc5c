// ARGS: -T cs_6_0 -E main
// GLSLANG: differs: glslang lowers fmod() to OpFMod (sign of the divisor); DXC to OpFRem (sign
// of the dividend, like C's fmod).
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float a = In[0];
    float b = In[1];
    Out[0] = fmod(a, b);
    Out[1] = fmod(-a, b);
    Out[2] = fmod(a, -b);
    float3 r = fmod(float3(-7.5, 7.5, -1.0), float3(2.0, -2.0, 4.0));
    Out[3] = r.x;
    Out[4] = r.y;
    Out[5] = r.z;
}
