// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Texture2D.SampleLevel in a vertex shader (explicit LOD).
// CHECK: OpImageSampleExplicitLod
Texture2D<float> heightmap : register(t0);
SamplerState linearClamp : register(s1);

float4 main(float2 xz : POSITION) : SV_Position
{
    float h = heightmap.SampleLevel(linearClamp, xz * 0.01, 0);
    return float4(xz.x, h * 20.0, xz.y, 1);
}
