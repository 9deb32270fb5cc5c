// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// [unroll], [unroll(n)], [loop] and [fastopt] loop attributes do not change results.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = 0;
    [unroll]
    for (int i = 0; i < 4; i++)
        a += In[i];
    Out[0] = a;
    int b = 0;
    [unroll(2)]
    for (int j = 0; j < In[4]; j++)
        b += j * j;
    Out[1] = b;
    int c = 1;
    [loop]
    while (c < 1000)
        c *= 3;
    Out[2] = c;
    int d = 0;
    [fastopt]
    for (int k = 0; k < 3; k++)
        d += 5;
    Out[3] = d;
    int e = 10;
    [loop]
    do
    {
        e -= 3;
    } while (e > 0);
    Out[4] = e;
}
