// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// A for loop over a cbuffer array of point lights, with continue and break.
struct PointLight
{
    float3 pos;
    float range;
};

cbuffer Lights : register(b0)
{
    PointLight lights[8];
    uint count;
};

struct VSOut
{
    float4 pos : SV_Position;
    float intensity : INTENSITY;
};

VSOut main(float3 pos : POSITION)
{
    float sum = 0;
    for (uint i = 0; i < 8; i++)
    {
        if (i >= count)
            break;
        float d = distance(pos, lights[i].pos);
        if (d > lights[i].range)
            continue;
        sum += 1.0 - d / lights[i].range;
    }
    VSOut o;
    o.pos = float4(pos, 1);
    o.intensity = sum;
    return o;
}
