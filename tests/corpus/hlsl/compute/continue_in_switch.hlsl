// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// A switch inside a loop: break leaves the switch, continue goes to the loop's next iteration.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int sw = 0;
    for (int k = 0; k < 6; k++)
    {
        switch (k % 3)
        {
        case 0:
            sw += 1;
            break;
        case 1:
            continue;
        default:
            sw += 10;
        }
        sw += 100;
    }
    Out[0] = sw;
}
