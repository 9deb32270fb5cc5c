// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Unsigned arithmetic: wraparound below zero and above 2^32-1, unsigned division and
// comparisons (0xFFFFFFFF is the largest value).
StructuredBuffer<uint> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    uint a = In[0];
    uint b = In[1];
    uint m = In[2];
    Out[0] = a - b;
    Out[1] = m + a;
    Out[2] = m * 3u;
    Out[3] = m / b;
    Out[4] = a / b;
    Out[5] = (m > a) ? 1u : 0u;
    Out[6] = (a - b > a) ? 1u : 0u;
    Out[7] = 0u - 1u;
    Out[8] = m / 16u + 7;
}
