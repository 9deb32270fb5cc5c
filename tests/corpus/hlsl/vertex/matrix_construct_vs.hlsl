// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Building matrices from rows and scalars, indexing rows and elements, float3x3 from float4x4.
float4 main(float3 pos : POSITION, float angle : ANGLE) : SV_Position
{
    float c = cos(angle);
    float s = sin(angle);
    float3x3 rot = float3x3(c, -s, 0,
                            s, c, 0,
                            0, 0, 1);
    float4x4 big = float4x4(float4(rot[0], 0), float4(rot[1], 0), float4(rot[2], 0),
                            float4(0, 0, 0, 1));
    float3x3 back = (float3x3)big;
    big[3][2] = 0.25;
    return float4(mul(back, pos), big._m32 + 1);
}
