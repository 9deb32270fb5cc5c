// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// A nested input struct is flattened (FragCoord plus three locations).
// CHECK: BuiltIn FragCoord
struct Surface
{
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

struct PSIn
{
    float4 pos : SV_Position;
    Surface s;
    float4 color : COLOR0;
};

float4 main(PSIn i) : SV_Target
{
    return float4(i.s.normal * i.color.rgb, i.s.uv.x * i.pos.w);
}
