// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// noperspective inputs are NoPerspective.
// CHECK: NoPerspective
float4 main(noperspective float2 screen : SCREEN) : SV_Target
{
    return float4(frac(screen * 10.0), 0, 1);
}
