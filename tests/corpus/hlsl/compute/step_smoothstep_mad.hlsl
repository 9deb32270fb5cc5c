// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// step (y >= edge ? 1 : 0), smoothstep (the cubic Hermite), and mad (a * b + c) on floats
// (int mad is in intrinsics_glslang_rejects.hlsl).
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float e = In[0];
    Out[0] = step(e, 1.0);
    Out[1] = step(e, 0.25);
    Out[2] = step(e, e);
    Out[3] = smoothstep(0.0, 1.0, 0.5);
    Out[4] = smoothstep(0.0, 2.0, e);
    Out[5] = smoothstep(1.0, 2.0, 0.5 + In[1]);
    Out[6] = smoothstep(1.0, 2.0, 3.0 + In[1]);
    Out[7] = mad(2.0, 3.0, e);
    Out[8] = mad(3.0, -4.0, In[1] + 5.0);
    float3 m = mad(float3(1, 2, 3), float3(2, 2, 2), float3(0.5, 0.5, 0.5));
    Out[9] = m.z;
}
