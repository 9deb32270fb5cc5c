// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Matrices: row-by-row construction, m[row][col], m[row] as a row vector, _m01 / _11 member
// names, int and uint matrices; size-1 matrices are in matrix_size_one.hlsl (glslang
// crashes on float1x1).
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float2x3 m = float2x3(1, 2, 3, 4, 5, 6);
    float3 row = m[1];
    float one = 7.0;
    int2x2 im = int2x2(1, -2, 3, -4);
    uint2x3 um = uint2x3(1, 2, 3, 4, 5, 6);
    matrix<float, 2, 2> g = float2x2(0.5, 1.5, 2.5, 3.5);
    float3x3 fromRows = float3x3(float3(1, 0, 0), float3(0, 2, 0), row);
    Out[0] = m[0][2];
    Out[1] = m[1][0];
    Out[2] = row.y;
    Out[3] = m._m12;
    Out[4] = m._21;
    Out[5] = one;
    Out[6] = one * 2.0 - 6.0;
    Out[7] = (float)(im[1][0] * im[1][1]);
    Out[8] = (float)um[1][2];
    Out[9] = g[1][0];
    Out[10] = fromRows[2][2] + fromRows[1][1];
    float2x3 sum = m + m;
    Out[11] = sum[1][1];
    m[0][1] = 20.0;
    m[1] = float3(7, 8, 9);
    Out[12] = m[0][1] + m[1][2];
}
