// min16float/min12int/half/double types (relaxed precision & 64-bit).
StructuredBuffer<float4> In : register(t0);
RWStructuredBuffer<double2> OutD : register(u0);
RWStructuredBuffer<float4> OutF : register(u1);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 v = In[id.x];
    min16float4 h = (min16float4)v;
    min16int i = (min16int)(v.x * 10.0);
    min16uint u = (min16uint)abs(i);
    half hh = (half)v.y;
    h = h * (min16float)0.5 + hh;
    double d = (double)v.z * 3.0;
    double2 dd = double2(d, sqrt(d) + fma(d, d, 1.0));
    OutD[id.x] = dd;
    OutF[id.x] = float4(h) + float(i + u);
}
