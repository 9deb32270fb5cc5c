// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Struct input and output, flattened into one variable per member; user semantics get
// locations in declaration order (POSITION 0, NORMAL 1, TEXCOORD0 2).
// CHECK: OpEntryPoint Vertex
// CHECK: OpDecorate %{{[\w.]+}} Location 2
struct VSIn
{
    float3 pos : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

struct VSOut
{
    float4 pos : SV_Position;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

VSOut main(VSIn i)
{
    VSOut o;
    o.pos = float4(i.pos, 1);
    o.normal = i.normal;
    o.uv = i.uv;
    return o;
}
