// ARGS: -T vs_6_0 -E main -fspv-target-env=vulkan1.1
// GLSLANG: same
// Vulkan 1.1: SPIR-V 1.3.
// CHECK: BufferBlock
StructuredBuffer<float4> positions : register(t0);

float4 main(uint id : SV_VertexID) : SV_Position
{
    return positions[id];
}
