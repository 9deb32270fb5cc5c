// ARGS: -T gs_6_0 -E main
// ERROR: 1:1: not supported yet
// The geometry shader profile is outside this frontend's scope (reported at 1:1).
struct GSOut
{
    float4 pos : SV_Position;
};

[maxvertexcount(3)]
void main(triangle float4 pos[3] : SV_Position, inout TriangleStream<GSOut> stream)
{
    GSOut o;
    o.pos = pos[0];
    stream.Append(o);
}
