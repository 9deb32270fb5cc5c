// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// floor, ceil, frac (x - floor(x)), round (to nearest even on ties: RoundEven) and trunc on
// positive and negative values.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float a = In[0];
    float b = In[1];
    Out[0] = floor(a);
    Out[1] = floor(b);
    Out[2] = ceil(a);
    Out[3] = ceil(b);
    Out[4] = frac(a);
    Out[5] = frac(b);
    Out[6] = round(2.5 + In[2]);
    Out[7] = round(3.5 + In[2]);
    Out[8] = round(-2.5 + In[2]);
    Out[9] = round(b);
    Out[10] = trunc(a);
    Out[11] = trunc(b);
    float4 v = floor(float4(a, b, -a, -b));
    Out[12] = v.x + v.y + v.z + v.w;
}
