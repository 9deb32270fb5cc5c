// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// clip(x) discards when any component is negative.
// CHECK: OpKill
float4 main(float4 color : COLOR0, float3 planes : PLANES) : SV_Target
{
    clip(color.a - 0.5);
    clip(planes);
    return color;
}
