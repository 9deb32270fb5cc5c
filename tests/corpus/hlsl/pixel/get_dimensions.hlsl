// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// GetDimensions with and without a mip level (OpImageQuerySizeLod, OpImageQueryLevels).
// CHECK: OpCapability ImageQuery
// CHECK: OpImageQuerySizeLod
Texture2D<float4> tex : register(t0);

float4 main(float4 pos : SV_Position) : SV_Target
{
    uint w, h, levels;
    tex.GetDimensions(0, w, h, levels);
    float fw, fh;
    tex.GetDimensions(fw, fh);
    return tex.Load(int3(int2(pos.xy) % int2(w, h), levels - 1)) + float4(fw, fh, 0, 0) * 0.0;
}
