// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Signed 32-bit + - * /: division truncates toward zero, overflow wraps.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = In[0];
    int b = In[1];
    int big = In[2];
    Out[0] = a + b;
    Out[1] = a - b;
    Out[2] = a * b;
    Out[3] = a / b;
    Out[4] = b / a;
    Out[5] = -a;
    Out[6] = big + 1;
    Out[7] = big * 2;
    Out[8] = (-a) / 2;
    Out[9] = -big - 2;
    Out[10] = a * b * b - (a + b) * 4;
}
