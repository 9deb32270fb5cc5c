// ARGS: -T cs_6_0 -E main
// GLSLANG: differs: glslang emits OpSMod (sign of the divisor) for `%` on int; DXC emits
// OpSRem (sign of the dividend).
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int p = In[0];
    int n = In[1];
    int d = In[2];
    Out[0] = p % d;
    Out[1] = n % d;
    Out[2] = p % -d;
    Out[3] = n % -d;
    int2 v = int2(n, p) % int2(d, -d);
    Out[4] = v.x;
    Out[5] = v.y;
    int c = n;
    c %= 4;
    Out[6] = c;
}
