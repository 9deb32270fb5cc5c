// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// linear (the default) and linear centroid inputs.
// CHECK: Centroid
struct PSIn
{
    linear float4 a : COLOR0;
    linear centroid float4 b : COLOR1;
};

float4 main(PSIn i) : SV_Target
{
    return lerp(i.a, i.b, 0.5);
}
