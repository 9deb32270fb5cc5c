// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// binary32 + - * / with exactly representable results; division by zero gives
// infinities, 0/0 a NaN, and negation of zero a negative zero.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float a = In[0];
    float b = In[1];
    float z = In[2];
    Out[0] = a + b;
    Out[1] = a - b;
    Out[2] = a * b;
    Out[3] = a / b;
    Out[4] = a / z;
    Out[5] = -a / z;
    Out[6] = z / z;
    Out[7] = -z;
    Out[8] = 1.0f / 3.0f * 3.0f;
    Out[9] = a * 0.5 + b;
    Out[10] = 16777216.0f + 1.0f;
}
