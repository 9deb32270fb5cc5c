// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// break and continue in for, while and do-while loops, in nested loops (affecting only the
// inner one); continue_in_switch.hlsl has continue inside a switch.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int s = 0;
    for (int i = 0; i < 100; i++)
    {
        if (i % 3 == 0)
            continue;
        if (i > 10)
            break;
        s += i;
    }
    Out[0] = s;
    int pairs = 0;
    for (int a = 0; a < 5; a++)
    {
        for (int b = 0; b < 5; b++)
        {
            if (b > a)
                break;
            if (b == 1)
                continue;
            pairs++;
        }
    }
    Out[1] = pairs;
    int w = 0;
    int n = 0;
    while (true)
    {
        n++;
        if (n % 2 == 1)
            continue;
        w += n;
        if (n >= 10)
            break;
    }
    Out[2] = w;
    int d = 0;
    do
    {
        d++;
        if (d < 5)
            continue;
        break;
    } while (d < 100);
    Out[3] = d;
}
