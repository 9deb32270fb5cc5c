// ARGS: -T cs_6_0 -E main
// GLSLANG: fails: glslang emits OpAny/OpAll on scalar bools and GLSL.std.450 Fma on ints,
// which spirv-val rejects (and folds any(float2(0.0, -0.5)) to false)
// Intrinsics on shapes glslang gets wrong: all/any of scalars, any of a constant float vector,
// mad on ints (DXC: OpIMul + OpIAdd).
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = any(In[1]);
    Out[1] = all(In[0]);
    Out[2] = any(float2(0.0, -0.5));
    Out[3] = all(2.5);
    Out[4] = mad(3, -4, 5);
    Out[5] = mad(In[0], In[2], -1);
    int2 m = mad(int2(1, 2), int2(3, 4), int2(5, 6));
    Out[6] = m.x * 100 + m.y;
}
