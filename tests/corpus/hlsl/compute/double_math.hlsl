// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// 64-bit floats: arithmetic beyond binary32 precision, conversions to and from float and int.
StructuredBuffer<double> In : register(t1);
RWStructuredBuffer<double> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    double a = In[0];
    double b = In[1];
    Out[0] = a + b;
    Out[1] = a * b;
    Out[2] = a / 3.0;
    Out[3] = (double)(float)(a / 3.0);
    Out[4] = (double)(int)(-a * 1.5);
    double2 v = double2(a, b) * 2.0;
    Out[5] = v.x - v.y;
    Out[6] = 16777217.0 + a;
}
