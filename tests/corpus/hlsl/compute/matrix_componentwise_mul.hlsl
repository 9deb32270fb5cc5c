// ARGS: -T cs_6_0 -E main
// GLSLANG: fails: glslang reads matrix `*` as the matrix product (OpMatrixTimesMatrix) and so
// rejects float2x3 * float2x3; in HLSL (and DXC) `*` on two matrices is component-wise.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float2x2 a = float2x2(1, 2, 3, 4);
    float2x2 b = float2x2(5, 6, 7, 8);
    float2x2 p = a * b;
    Out[0] = p[0][0];
    Out[1] = p[0][1];
    Out[2] = p[1][0];
    Out[3] = p[1][1];
    float2x3 c = float2x3(1, 2, 3, 4, 5, 6);
    float2x3 q = c * c;
    Out[4] = q[1][2];
    float2x3 s = c * 2.0;
    Out[5] = s[0][2];
    float2x3 d = c / c;
    Out[6] = d[1][1];
}
