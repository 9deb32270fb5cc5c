// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Compound assignment on ints, uints, floats and vectors, with the value of the assignment
// used as an expression.
RWStructuredBuffer<int> Out : register(u0);
RWStructuredBuffer<float> OutF : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    int i = 10;
    i += 5;
    Out[0] = i;
    i -= 20;
    Out[1] = i;
    i *= -3;
    Out[2] = i;
    i /= 4;
    Out[3] = i;
    i %= 2;
    Out[4] = i;
    i <<= 3;
    Out[5] = i;
    i >>= 1;
    Out[6] = i;
    i |= 0x30;
    i &= 0x3C;
    i ^= 0x0F;
    Out[7] = i;
    int j;
    int k = (j = 4) + 1;
    Out[8] = j * 10 + k;
    float f = 1.5;
    f *= 4.0;
    f -= 0.5;
    f /= 2.0;
    OutF[0] = f;
    float3 v = float3(1, 2, 3);
    v *= 2.0;
    v += float3(0.5, 0.5, 0.5);
    v.y -= 10.0;
    OutF[1] = v.x;
    OutF[2] = v.y;
    OutF[3] = v.z;
    uint u = 7;
    u -= 9;
    Out[9] = (int)(u >> 28);
}
