// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// RWTexture2D in a pixel shader: a storage image read and written (OpImageRead, OpImageWrite).
// CHECK: OpImageRead
// CHECK: OpImageWrite
RWTexture2D<float4> accum : register(u1);

float4 main(float4 pos : SV_Position, float4 color : COLOR0) : SV_Target
{
    uint2 p = uint2(pos.xy);
    float4 old = accum[p];
    accum[p] = old + color;
    return old;
}
