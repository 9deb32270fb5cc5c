// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// register(t2) and register(s3): bindings 2 and 3 in set 0.
// CHECK: OpDecorate %{{\w+}} Binding 3
Texture2D tex : register(t2);
SamplerState samp : register(s3);

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    return tex.Sample(samp, uv).bgra;
}
