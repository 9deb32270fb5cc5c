// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// mul() with scalars and vectors: scalar*scalar, scalar*vector, vector*scalar, scalar*matrix,
// matrix*scalar, and vector*vector (the dot product); also int operands.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float s = 3.0;
    float3 v = float3(1, 2, 3);
    float2x2 m = float2x2(1, 2, 3, 4);
    Out[0] = mul(s, 2.5);
    float3 sv = mul(s, v);
    Out[1] = sv.z;
    float3 vs = mul(v, 0.5);
    Out[2] = vs.y;
    float2x2 sm = mul(2.0, m);
    Out[3] = sm[1][0];
    float2x2 ms = mul(m, -1.0);
    Out[4] = ms[0][1];
    Out[5] = mul(v, float3(4, 5, 6));
    int2 iv = int2(3, -4);
    Out[6] = (float)mul(iv, int2(2, 5));
    Out[7] = (float)mul(7, -3);
}
