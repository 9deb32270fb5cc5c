// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// row_major and column_major float2x3 in a StructuredBuffer: row_major stores the two rows
// (float3, stride 16), column_major the three columns (float2, stride 8); either way m[i][j]
// is row i, column j.
struct Mats
{
    row_major float2x3 r;
    column_major float2x3 c;
};

StructuredBuffer<Mats> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Mats m = In[0];
    for (int i = 0; i < 2; i++)
    {
        for (int j = 0; j < 3; j++)
        {
            Out[i * 3 + j] = m.r[i][j];
            Out[6 + i * 3 + j] = m.c[i][j];
        }
    }
    float2 v = mul(In[0].c, float3(1, 1, 1));
    Out[12] = v.y;
}
