// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// min16float arithmetic and output (RelaxedPrecision).
// CHECK: RelaxedPrecision
min16float4 main(min16float4 color : COLOR0, min16float2 uv : TEXCOORD0) : SV_Target
{
    min16float k = uv.x * uv.y;
    return color * k;
}
