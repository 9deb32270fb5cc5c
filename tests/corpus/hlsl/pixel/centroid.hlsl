// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// centroid inputs are Centroid.
// CHECK: Centroid
float4 main(centroid float2 uv : TEXCOORD0) : SV_Target
{
    return float4(uv, 0, 1);
}
