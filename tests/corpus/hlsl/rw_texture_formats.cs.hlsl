// RW textures with [[vk::image_format]] annotations and typed loads.
[[vk::image_format("rgba16f")]] RWTexture2D<float4> Color : register(u0);
[[vk::image_format("r32ui")]] RWTexture2D<uint> Ids : register(u1);
[[vk::image_format("rg32f")]] RWTexture3D<float2> Velocity : register(u2);
[[vk::image_format("r8")]] RWTexture2DArray<float> Masks : register(u3);

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 c = Color[id.xy];
    uint i = Ids[id.xy];
    float2 v = Velocity[uint3(id.xy, i & 3)];
    float m = Masks[uint3(id.xy, 0)];
    Color[id.xy] = c * m + float4(v, 0, 0);
    Ids[id.xy] = i + 1;
}
