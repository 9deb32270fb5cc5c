// ARGS: -T cs_6_0 -E main -HV 2018
// GLSLANG: same
// ?: under HLSL 2018 (both arms evaluated): a vector condition selects per component
// (OpSelect); a scalar condition with vector arms selects whole vectors; nested conditionals.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float4 a = float4(In[0], In[1], In[2], In[3]);
    float4 b = float4(10, 20, 30, 40);
    float4 r = (a > 0.0) ? a : b;
    Out[0] = r.x;
    Out[1] = r.y;
    Out[2] = r.z;
    Out[3] = r.w;
    float2 s = (a.x > 2.0) ? a.xy : b.zw;
    Out[4] = s.x;
    Out[5] = s.y;
    float n = a.y;
    Out[6] = n < 0.0 ? -1.0 : (n > 0.0 ? 1.0 : 0.0);
    int2 iv = bool2(true, false) ? int2(1, 2) : int2(3, 4);
    Out[7] = (float)(iv.x * 10 + iv.y);
}
