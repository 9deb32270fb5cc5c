// ARGS: -T cs_6_0 -E main
// ERROR: 10:5: break
// break outside any loop or switch.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
    break;
}
