// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Vertex pulling from a StructuredBuffer by SV_VertexID (Uniform + BufferBlock, NonWritable
// up to Vulkan 1.1).
// CHECK: BufferBlock
struct Vertex
{
    float3 pos;
    float u;
    float3 normal;
    float v;
};

StructuredBuffer<Vertex> vertices : register(t0);

struct VSOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};

VSOut main(uint id : SV_VertexID)
{
    Vertex vtx = vertices[id];
    VSOut o;
    o.pos = float4(vtx.pos, 1);
    o.uv = float2(vtx.u, vtx.v);
    return o;
}
