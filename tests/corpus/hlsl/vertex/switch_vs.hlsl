// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// A switch on the vertex id with fallthrough and default.
float4 main(uint id : SV_VertexID) : SV_Position
{
    float2 p = 0;
    switch (id % 4)
    {
    case 0:
        p = float2(-1, -1);
        break;
    case 1:
        p.x = 1;
    case 2:
        p.y = 1;
        break;
    default:
        p = float2(0.5, 0.5);
        break;
    }
    return float4(p, 0, 1);
}
