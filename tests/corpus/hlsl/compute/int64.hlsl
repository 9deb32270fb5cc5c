// ARGS: -T cs_6_2 -E main
// GLSLANG: fails: glslang's HLSL frontend has no int64_t/uint64_t
// 64-bit integers (Int64 capability): products beyond 32 bits, shifts masked to 64 bits,
// conversions to 32 bits keep the low word.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int64_t> Out : register(u0);
RWStructuredBuffer<uint64_t> OutU : register(u2);

[numthreads(1, 1, 1)]
void main()
{
    int64_t a = In[0];
    int64_t big = 5000000000;
    Out[0] = a * big;
    Out[1] = big / -a;
    Out[2] = (int64_t)(int)(big);
    Out[3] = -big >> 1;
    uint64_t u = 0xFFFFFFFFFFFFFFFF;
    OutU[0] = u + 2;
    OutU[1] = u >> 60;
    OutU[2] = (uint64_t)1 << 63;
    OutU[3] = (uint64_t)1 << 65;
}
