// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// & | ^ ~ on int, uint and vectors.
StructuredBuffer<uint> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    uint a = In[0];
    uint b = In[1];
    Out[0] = a & b;
    Out[1] = a | b;
    Out[2] = a ^ b;
    Out[3] = ~a;
    int i = -6;
    Out[4] = (uint)(~i);
    Out[5] = (uint)(i & 0xFF);
    uint2 v = uint2(a, b) ^ uint2(0xFFFF0000, 0x0F0F0F0F);
    Out[6] = v.x;
    Out[7] = v.y;
    uint m = a;
    m &= 0xF0F0;
    m |= 1;
    m ^= 0x100;
    Out[8] = m;
}
