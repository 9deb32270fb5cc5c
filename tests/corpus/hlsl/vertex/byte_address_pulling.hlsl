// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Vertex pulling from a ByteAddressBuffer with Load3 and asfloat.
// CHECK: BufferBlock
ByteAddressBuffer raw : register(t0);

float4 main(uint id : SV_VertexID) : SV_Position
{
    uint3 bits = raw.Load3(id * 12);
    return float4(asfloat(bits), 1);
}
