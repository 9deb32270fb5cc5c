// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// mul(A, B) is the matrix product: float2x3 times float3x2 is float2x2, float3x2 times
// float2x3 is float3x3.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float2x3 a = float2x3(1, 2, 3, 4, 5, 6);
    float3x2 b = float3x2(7, 8, 9, 10, 11, 12);
    float2x2 p = mul(a, b);
    Out[0] = p[0][0];
    Out[1] = p[0][1];
    Out[2] = p[1][0];
    Out[3] = p[1][1];
    float3x3 q = mul(b, a);
    Out[4] = q[0][0];
    Out[5] = q[1][2];
    Out[6] = q[2][1];
    float2x2 r = mul(p, float2x2(0, 1, 1, 0));
    Out[7] = r[0][0];
    Out[8] = r[1][1];
}
