// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Texture2D.Load (x, y, mip) and operator[] are OpImageFetch.
// CHECK: OpImageFetch
Texture2D<float4> gbuffer : register(t0);

float4 main(float4 pos : SV_Position) : SV_Target
{
    int2 p = int2(pos.xy);
    return gbuffer.Load(int3(p, 0)) * 0.5 + gbuffer[uint2(p)] * 0.5;
}
