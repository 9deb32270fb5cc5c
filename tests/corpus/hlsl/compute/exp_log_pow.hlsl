// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// sqrt, rsqrt, pow, exp, exp2, log, log2 (compared with a 1e-5 relative tolerance: Vulkan only
// bounds their precision).
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float x = In[0];
    Out[0] = sqrt(x);
    Out[1] = rsqrt(x);
    Out[2] = pow(x, 1.5);
    Out[3] = exp(1.0 + In[1]);
    Out[4] = exp2(x);
    Out[5] = log(x);
    Out[6] = log2(x);
    float2 v = sqrt(float2(9, 16));
    Out[7] = v.x + v.y;
    Out[8] = pow(2.0, 10.0 + In[1]);
}
