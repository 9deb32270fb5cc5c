// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Loops, a switch, break/continue and early return in a pixel shader.
// CHECK: OpLoopMerge
float4 main(float2 uv : TEXCOORD0, nointerpolation int mode : MODE) : SV_Target
{
    float3 c = 0;
    for (int i = 0; i < 8; i++)
    {
        if (i == mode)
            continue;
        if (c.r > 2.0)
            break;
        c += float3(uv, 0.125);
    }
    switch (mode)
    {
    case 0:
        return float4(c, 1);
    case 1:
    case 2:
        c *= 0.5;
        break;
    default:
        c = 1 - c;
    }
    int n = 0;
    while (n < mode)
        n++;
    do
    {
        c.b += 0.01;
    } while (c.b < 0.5);
    return float4(c, (float)n);
}
