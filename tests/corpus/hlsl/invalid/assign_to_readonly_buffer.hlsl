// ARGS: -T cs_6_0 -E main
// ERROR: 10:5: assign
// Writing a StructuredBuffer (read-only).
StructuredBuffer<float> In : register(t0);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    In[0] = 1.0;
    Out[0] = In[0];
}
