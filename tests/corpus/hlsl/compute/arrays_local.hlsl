// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Local arrays: initializer lists, dynamic indexing, 2-D arrays, arrays of vectors, array
// copies by value, and arrays passed to functions.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

int total(int a[4])
{
    int s = 0;
    for (int i = 0; i < 4; i++)
        s += a[i];
    return s;
}

[numthreads(1, 1, 1)]
void main()
{
    int k = In[0];
    int a[4] = { 10, 20, 30, 40 };
    int b[4];
    b = a;
    b[k] = 0;
    int grid[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
    int2 pts[3] = { int2(1, 2), int2(3, 4), int2(5, 6) };
    int squares[5];
    for (int i = 0; i < 5; i++)
        squares[i] = i * i;
    Out[0] = a[k];
    Out[1] = b[k];
    Out[2] = total(a);
    Out[3] = total(b);
    Out[4] = grid[1][k];
    Out[5] = pts[k].y;
    Out[6] = squares[In[1]];
    grid[k - 1][0] = 100;
    Out[7] = grid[0][0] + grid[1][0];
}
