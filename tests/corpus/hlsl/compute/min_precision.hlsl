// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// half and the min-precision types compute in 32 bits (DXC without -enable-16bit-types):
// min16int 30000 + 30000 does not overflow, half keeps binary32 precision.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    half h = In[0];
    min16float m = In[1];
    min10float t = In[2];
    min16int a = 30000;
    min12int b = -5;
    min16uint c = 65535;
    half2 hv = half2(h, 2.0);
    min16float3 mv = min16float3(1.0, 2.0, m);
    Out[0] = h + 1.0 / 4096.0;
    Out[1] = m * 3.0;
    Out[2] = t - 0.5;
    Out[3] = (float)(a + a);
    Out[4] = (float)(b * 3);
    Out[5] = (float)(c + 1);
    Out[6] = dot(hv, hv);
    Out[7] = mv.z + mv.y;
}
