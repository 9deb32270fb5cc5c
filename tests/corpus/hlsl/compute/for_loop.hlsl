// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// for loops: counting up and down, nested, a loop-carried float, and a trip count from a
// buffer (zero trips included).
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int n = In[0];
    int sum = 0;
    for (int i = 0; i < n; ++i)
        sum += i;
    Out[0] = sum;
    int prod = 1;
    for (int j = 5; j > 0; j--)
        prod *= j;
    Out[1] = prod;
    int grid = 0;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            grid += x * y;
    Out[2] = grid;
    int none = 7;
    for (int k = 0; k < In[1]; k++)
        none = 0;
    Out[3] = none;
    float f = 1.0;
    for (uint u = 0; u < 10; u++)
        f *= 2.0;
    Out[4] = (int)f;
    int a = 0, b = 0;
    for (a = 0, b = 10; a < b; a += 2, b -= 1)
    {
    }
    Out[5] = a * 100 + b;
}
