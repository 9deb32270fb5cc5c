// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// min and max on int (signed), uint (unsigned), float and vectors, without NaNs.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = In[0];
    int b = In[1];
    Out[0] = min(a, b);
    Out[1] = max(a, b);
    Out[2] = (int)min((uint)a, (uint)b);
    Out[3] = (int)max((uint)a, (uint)b);
    Out[4] = (int)(min(1.5, -2.5) * 2.0);
    Out[5] = (int)(max(1.5, -2.5) * 2.0);
    int3 v = max(int3(a, b, 0), int3(0, 0, 0));
    Out[6] = v.x + v.y * 100;
    float2 f = min(float2(1, 5), float2(3, 2));
    Out[7] = (int)(f.x * 10 + f.y);
}
