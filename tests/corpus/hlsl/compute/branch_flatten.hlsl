// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// [branch] and [flatten] on if statements and [branch]/[flatten] on switch do not change
// results.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = In[id.x];
    int r = 0;
    [branch]
    if (x > 2)
        r = 1;
    else
        r = 2;
    [flatten]
    if (x == 1)
        r += 10;
    [branch]
    switch (x)
    {
    case 0:
        r += 100;
        break;
    default:
        r += 200;
        break;
    }
    [flatten]
    switch (x)
    {
    case 3:
        r += 1000;
        break;
    }
    Out[id.x] = r;
}
