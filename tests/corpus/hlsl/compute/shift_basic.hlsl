// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Shifts below the bit width: `>>` is arithmetic on int and logical on uint.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int x = In[0];
    int n = In[1];
    uint ux = (uint)x;
    Out[0] = x << n;
    Out[1] = x >> n;
    Out[2] = (int)(ux >> n);
    Out[3] = 1 << 31;
    Out[4] = (1 << 31) >> 31;
    Out[5] = (int)((1u << 31) >> 31);
    int2 v = int2(x, 256) >> int2(1, n);
    Out[6] = v.x;
    Out[7] = v.y;
    int s = 3;
    s <<= 4;
    s >>= 1;
    Out[8] = s;
}
