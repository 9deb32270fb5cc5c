// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// while loops: Collatz steps per invocation (data-dependent trip counts), and a loop whose
// condition is false at once.
StructuredBuffer<uint> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint n = In[id.x];
    uint steps = 0;
    while (n != 1)
    {
        if (n % 2 == 0)
            n /= 2;
        else
            n = 3 * n + 1;
        steps++;
    }
    uint zero = 0;
    while (zero > 0)
        zero--;
    Out[id.x] = steps + zero;
}
