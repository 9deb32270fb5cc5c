// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Vector constructors from mixed scalars and vectors, scalar splats (by cast and by
// assignment) and explicit truncation.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float s = In[0];
    float2 p = float2(In[1], In[2]);
    float4 a = float4(p, s, 1.0);
    float4 b = float4(s, p.yx, 0.5);
    float3 splat = (float3)s;
    float4 assign = s;
    float2 cut = (float2)a.zwxy;
    int3 fromScalars = int3(1, 2, 3);
    Out[0] = a.x;
    Out[1] = a.z;
    Out[2] = b.y;
    Out[3] = b.w;
    Out[4] = splat.x + splat.y + splat.z;
    Out[5] = assign.w;
    Out[6] = cut.x;
    Out[7] = cut.y;
    Out[8] = (float)(fromScalars.x + fromScalars.z);
}
