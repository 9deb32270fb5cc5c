// ARGS: -T vs_6_0 -E main -fspv-target-env=vulkan1.2
// GLSLANG: fails: glslang 12 decorates HLSL buffers BufferBlock in SPIR-V 1.5, which spirv-val
// rejects
// Vulkan 1.2: structured buffers are StorageBuffer blocks.
// CHECK: OpVariable %{{\w+}} StorageBuffer
StructuredBuffer<float4> positions : register(t0);

float4 main(uint id : SV_VertexID) : SV_Position
{
    return positions[id];
}
