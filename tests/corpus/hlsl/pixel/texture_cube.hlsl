// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// TextureCube sampled with a reflection direction.
// CHECK: OpTypeImage %{{\w+}} Cube
TextureCube<float4> env : register(t0);
SamplerState samp : register(s0);

float4 main(float3 n : NORMAL, float3 v : VIEW) : SV_Target
{
    float3 r = reflect(-normalize(v), normalize(n));
    return env.Sample(samp, r);
}
