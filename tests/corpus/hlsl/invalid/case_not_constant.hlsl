// ARGS: -T cs_6_0 -E main
// ERROR: 13:10: case
// A switch case label that is not a constant.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int x = Out[0];
    int y = Out[1];
    switch (x)
    {
    case y:
        Out[2] = 1;
        break;
    }
}
