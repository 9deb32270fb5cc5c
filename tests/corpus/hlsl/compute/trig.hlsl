// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// sin, cos, tan, asin, acos, atan, atan2 (compared with a 1e-4 absolute tolerance).
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float x = In[0];
    Out[0] = sin(x);
    Out[1] = cos(x);
    Out[2] = tan(x);
    Out[3] = asin(0.5 + In[1]);
    Out[4] = acos(0.5 + In[1]);
    Out[5] = atan(1.0 + In[1]);
    Out[6] = atan2(1.0, -1.0 + In[1]);
    Out[7] = atan2(-2.0, 0.0 + In[1]);
    float2 s = sin(float2(0, x));
    Out[8] = s.y - s.x;
}
