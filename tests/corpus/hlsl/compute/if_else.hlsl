// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// if / else if / else chains, nested ifs, and if without else, per invocation.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = In[id.x];
    int r = 0;
    if (x < 0)
        r = -1;
    else if (x == 0)
        r = 100;
    else if (x < 10)
    {
        if (x % 2 == 0)
            r = 2;
        else
            r = 3;
    }
    else
        r = 4;
    if (x > 50)
        r += 1000;
    Out[id.x] = r;
}
