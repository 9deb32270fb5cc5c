// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// sample inputs are Sample (with the SampleRateShading capability).
// CHECK: OpCapability SampleRateShading
// CHECK: OpDecorate %{{[\w.]+}} Sample
float4 main(sample float3 color : COLOR0) : SV_Target
{
    return float4(color, 1);
}
