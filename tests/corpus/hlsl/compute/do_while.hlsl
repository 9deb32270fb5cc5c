// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// do-while runs its body at least once; digit sums with a do-while per invocation.
StructuredBuffer<uint> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint n = In[id.x];
    uint digits = 0;
    uint sum = 0;
    do
    {
        sum += n % 10;
        n /= 10;
        digits++;
    } while (n > 0);
    uint once = 0;
    do
    {
        once++;
    } while (false);
    Out[id.x] = digits * 1000 + sum * 10 + once;
}
