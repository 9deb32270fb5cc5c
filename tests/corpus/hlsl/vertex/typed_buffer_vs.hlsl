// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Buffer<float4> (a uniform texel buffer) read with Load and operator[].
// CHECK: OpTypeImage %{{\w+}} Buffer
// CHECK: OpImageFetch
Buffer<float4> positions : register(t0);

float4 main(uint id : SV_VertexID) : SV_Position
{
    return positions.Load(id) + positions[id + 1] * 0.0;
}
