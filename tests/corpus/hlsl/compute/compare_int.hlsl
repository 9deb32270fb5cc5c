// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Integer comparisons: signed for int, unsigned for uint; an int compared with a uint is
// converted to uint (the usual arithmetic conversions), so -1 > 1u.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int m = In[0];
    int p = In[1];
    uint up = (uint)p;
    Out[0] = m < p;
    Out[1] = m <= m;
    Out[2] = m > p;
    Out[3] = m >= p;
    Out[4] = m == -1;
    Out[5] = m != p;
    Out[6] = (uint)m > up;
    Out[7] = m > up;
    int3 a = int3(m, p, 0);
    bool3 ge = a >= int3(0, 0, 0);
    Out[8] = ge.x;
    Out[9] = ge.y;
    Out[10] = ge.z;
}
