// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Boolean values: !, &&, || without side effects, bool vectors, == and != on bools, bools
// stored through a uint buffer.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    bool t = In[0] != 0;
    bool f = In[1] != 0;
    Out[0] = t && f;
    Out[1] = t || f;
    Out[2] = !t;
    Out[3] = t == f;
    Out[4] = t != f;
    Out[5] = (t && !f) || f;
    bool4 v = bool4(t, f, true, false);
    bool4 w = !v;
    Out[6] = w.x;
    Out[7] = w.y;
    Out[8] = v.z;
    Out[9] = (uint)v.w + 2 * (uint)w.w;
    bool1 one = t;
    Out[10] = one.x;
}
