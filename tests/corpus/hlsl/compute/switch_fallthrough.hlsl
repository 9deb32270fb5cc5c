// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// switch with constant labels: fallthrough between cases, several labels on one body,
// default in the middle, and a break out of a nested if.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = In[id.x];
    int r = 0;
    switch (x)
    {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    case 2:
    case 3:
        r += 100;
        if (x == 3)
            break;
        r += 1000;
        break;
    default:
        r = -1;
        break;
    case -5:
        r = 55;
    }
    switch (x)
    {
    case 7:
        r *= 2;
    }
    Out[id.x] = r;
}
