// ARGS: -T cs_6_0 -E main
// GLSLANG: differs: DXC masks shift amounts to the bit width (x << (n & 31)); glslang emits the
// shift unmasked, undefined for amounts of 32 or more.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int one = In[0];
    int n32 = In[1];
    int n33 = In[2];
    int neg = In[3];
    Out[0] = one << n32;
    Out[1] = one << n33;
    Out[2] = neg >> n33;
    Out[3] = (int)((uint)neg >> n33);
    Out[4] = one << (n32 + 4);
    uint2 u = uint2(3, 5) << uint2(n33, 34);
    Out[5] = (int)u.x;
    Out[6] = (int)u.y;
}
