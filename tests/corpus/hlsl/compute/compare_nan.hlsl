// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Float comparisons are ordered (OpFOrd*): every <, <=, >, >=, == involving a NaN is false.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float nan = In[0];
    float one = In[1];
    float inf = In[2];
    Out[0] = nan < one ? 1 : 0;
    Out[1] = nan > one ? 1 : 0;
    Out[2] = nan <= nan ? 1 : 0;
    Out[3] = nan >= one ? 1 : 0;
    Out[4] = nan == nan ? 1 : 0;
    Out[5] = !(nan < one) ? 1 : 0;
    Out[6] = one < inf ? 1 : 0;
    Out[7] = -inf < -one ? 1 : 0;
    Out[8] = inf == inf ? 1 : 0;
    bool2 b = float2(nan, one) < float2(one, inf);
    Out[9] = b.x ? 1 : 0;
    Out[10] = b.y ? 1 : 0;
    Out[11] = (one == 1.0f) ? 1 : 0;
}
