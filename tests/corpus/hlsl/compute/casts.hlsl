// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Conversions: float to int truncates toward zero, int/uint to float rounds to nearest,
// bool to number is 0/1, number to bool is `!= 0`, explicit and implicit casts, vector casts.
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);
RWStructuredBuffer<float> OutF : register(u2);

[numthreads(1, 1, 1)]
void main()
{
    float a = In[0];
    float b = In[1];
    float c = In[2];
    Out[0] = (int)a;
    Out[1] = (int)b;
    Out[2] = int(c);
    Out[3] = (int)(uint)c;
    bool t = a;
    bool f = (bool)0.0f;
    Out[4] = t;
    Out[5] = f;
    Out[6] = (int)(bool)-3;
    int2 v = (int2)float2(a, b);
    Out[7] = v.x;
    Out[8] = v.y;
    uint big = 0xFFFFFFFF;
    int i = -7;
    OutF[0] = (float)big;
    OutF[1] = (float)i;
    OutF[2] = (float)16777217;
    OutF[3] = (float)(i / 2);
    OutF[4] = i * 0.5;
    OutF[5] = t + 0.25f;
    float3 fv = int3(1, -2, 3);
    OutF[6] = fv.y;
    uint u = (uint)c;
    OutF[7] = u;
}
