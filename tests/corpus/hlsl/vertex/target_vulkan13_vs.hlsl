// ARGS: -T vs_6_0 -E main -fspv-target-env=vulkan1.3
// GLSLANG: same
// Vulkan 1.3 (SPIR-V 1.6): the entry point lists the cbuffer variable too.
// CHECK: OpEntryPoint Vertex
cbuffer C : register(b0)
{
    float4 offset;
};

float4 main(float4 pos : POSITION) : SV_Position
{
    return pos + offset;
}
