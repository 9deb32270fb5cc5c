// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Texture2D.Load with an int3 (x, y, mip) is OpImageFetch.
// CHECK: OpImageFetch
Texture2D<float4> offsets : register(t0);

float4 main(float3 pos : POSITION, uint id : SV_VertexID) : SV_Position
{
    float4 o = offsets.Load(int3(id % 16, id / 16, 0));
    return float4(pos + o.xyz, 1);
}
