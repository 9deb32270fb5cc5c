// ARGS: -T vs_6_0 -E main -HV 2018
// GLSLANG: same
// -HV 2018: && and ?: on scalars evaluate both sides (no branches needed).
float4 main(float4 pos : POSITION) : SV_Position
{
    bool inside = pos.x > 0 && pos.y > 0;
    float s = inside ? 1.0 : 0.5;
    return pos * s;
}
