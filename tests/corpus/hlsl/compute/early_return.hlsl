// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// return from inside loops and branches of a function, and an early return from the entry
// point for some invocations (their outputs keep the job's initial values).
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

int find(int value)
{
    for (int i = 0; i < 8; i++)
    {
        if (In[i] == value)
            return i;
    }
    return -1;
}

int classify(int v)
{
    if (v < 0)
        return -1;
    if (v == 0)
        return 0;
    return 1;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= 6)
        return;
    int v = In[id.x];
    Out[id.x] = find(v * 2) * 10 + classify(v);
}
