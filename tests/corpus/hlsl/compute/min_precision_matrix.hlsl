// ARGS: -T cs_6_0 -E main
// GLSLANG: fails: glslang's HLSL frontend has no min-precision matrix types (min16float2x2)
// Min-precision matrices and vectors: 32-bit floats and ints decorated RelaxedPrecision.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    min16float2x2 hm = min16float2x2(0.5, 1.5, 2.5, 3.5);
    min16int2x2 im = min16int2x2(1, 2, 3, 4);
    min16float2 v = mul(hm, min16float2(2, 0));
    Out[0] = hm[1][1] - hm[0][0];
    Out[1] = (float)(im[0][1] * im[1][0]);
    Out[2] = v.y;
}
