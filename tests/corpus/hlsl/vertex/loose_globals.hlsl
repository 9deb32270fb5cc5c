// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Loose uniform globals are gathered into the $Globals cbuffer (a Block).
// CHECK: Block
float4x4 g_viewProj;
float g_time;
float3 g_wind;

float4 main(float3 pos : POSITION) : SV_Position
{
    float3 p = pos + g_wind * sin(g_time + pos.x);
    return mul(g_viewProj, float4(p, 1));
}
