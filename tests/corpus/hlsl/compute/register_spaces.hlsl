// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// register(xN, spaceM) gives binding N in set M, whatever the register class (t, u, b).
RWStructuredBuffer<uint> Out : register(u1, space2);
StructuredBuffer<uint> In : register(t4);
cbuffer Consts : register(b3, space1)
{
    uint4 k;
};

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = In[0] + k.x;
    Out[1] = In[1] + k.w;
}
