// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Two textures sharing one sampler, selected by a uniform branch.
// CHECK: OpImageSampleImplicitLod
Texture2D day : register(t0);
Texture2D night : register(t1);
SamplerState samp : register(s2);
cbuffer C : register(b3)
{
    float blend;
};

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    float4 a = day.Sample(samp, uv);
    float4 b = night.Sample(samp, uv);
    [branch]
    if (blend <= 0.0)
        return a;
    return lerp(a, b, blend);
}
