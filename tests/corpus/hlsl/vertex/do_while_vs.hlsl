// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// while and do-while loops with data-dependent trip counts in a vertex shader.
float4 main(float4 pos : POSITION, uint n : COUNT) : SV_Position
{
    float4 p = pos;
    uint i = 0;
    do
    {
        p.xy = p.yx * 0.5;
        i++;
    } while (i < n);
    while (p.z > 1.0)
        p.z *= 0.5;
    return p;
}
