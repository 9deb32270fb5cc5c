// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// all and any on bool, int and float vectors (non-zero is true); scalars and a constant float
// vector are in intrinsics_glslang_rejects.hlsl.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int3 v = int3(In[0], In[1], In[2]);
    Out[0] = all(v);
    Out[1] = any(v);
    Out[2] = all(v.xz);
    Out[3] = any(int2(0, 0));
    Out[4] = all(float3(1, 2, 3) > float3(0, 0, 0));
    Out[5] = any(float2(0.0, -0.5) + (float)In[1]);
    Out[6] = all(bool4(true, true, true, false));
}
