// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// `%` on uint is OpUMod; on non-negative ints both compilers agree.
StructuredBuffer<uint> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    uint a = In[0];
    uint b = In[1];
    Out[0] = a % b;
    Out[1] = 0xFFFFFFFFu % b;
    Out[2] = b % a;
    uint3 v = uint3(a, a + 1, a + 2) % 3u;
    Out[3] = v.x;
    Out[4] = v.y;
    Out[5] = v.z;
    int pos = (int)a;
    Out[6] = (uint)(pos % 5);
}
