// ARGS: -T cs_6_0 -E main
// GLSLANG: differs: glslang emits OpFMod (sign of the divisor) for `%` on floats; DXC emits
// OpFRem (sign of the dividend).
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float a = In[0];
    float b = In[1];
    Out[0] = a % b;
    Out[1] = -a % b;
    Out[2] = a % -b;
    Out[3] = -a % -b;
    float2 v = float2(a, -a) % 2.0f;
    Out[4] = v.x;
    Out[5] = v.y;
}
