// ARGS: -T cs_6_0 -E main
// GLSLANG: fails: glslang cannot construct float1xN / floatNx1 matrices ("unsupported
// construction") and crashes on float1x1
// Size-1 matrices collapse: float1x1 is a scalar, float1x3 and float3x1 are vectors, but
// they are still indexed as matrices.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float1x1 one = 7.0;
    float1x3 r = float1x3(1, 2, 3);
    float3x1 c = float3x1(4, 5, 6);
    float1x2 m = float1x2(r[0][2], one);
    Out[0] = r[0][1] + c[2][0];
    Out[1] = m._m01;
    Out[2] = dot(r[0], float3(1, 1, 1));
    float3 asVector = (float3)c;
    Out[3] = asVector.y;
    float2x1 p = mul(float2x3(1, 0, 0, 0, 1, 0), c);
    Out[4] = p[1][0];
}
