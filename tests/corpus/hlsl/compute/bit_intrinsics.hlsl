// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// countbits, reversebits, firstbithigh (FindUMsb for uint, FindSMsb for int: the first bit
// that differs from the sign) and firstbitlow (FindILsb); -1 (all ones) where no bit is found.
StructuredBuffer<uint> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    uint a = In[0];
    uint z = In[1];
    Out[0] = countbits(a);
    Out[1] = countbits(z);
    Out[2] = reversebits(a);
    Out[3] = firstbithigh(a);
    Out[4] = firstbithigh(z);
    Out[5] = firstbitlow(a);
    Out[6] = firstbitlow(z);
    Out[7] = (uint)firstbithigh((int)-8);
    Out[8] = (uint)firstbithigh((int)-1);
    Out[9] = (uint)firstbithigh((int)1000);
    uint2 c = countbits(uint2(0xFFFFFFFF, 0x80000001));
    Out[10] = c.x * 100 + c.y;
}
