// Geometry shader: point -> quad billboard with TriangleStream.
cbuffer Cam : register(b0) { float4x4 Proj; float2 Size; };
struct GSIn { float4 pos : SV_Position; float4 color : COLOR0; };
struct GSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; float4 color : COLOR0; };

[maxvertexcount(4)]
void main(point GSIn input[1], inout TriangleStream<GSOut> stream) {
    static const float2 corners[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };
    [unroll]
    for (int i = 0; i < 4; ++i) {
        GSOut o;
        o.pos = input[0].pos + mul(Proj, float4(corners[i] * Size, 0, 0));
        o.uv = corners[i] * 0.5 + 0.5;
        o.color = input[0].color;
        stream.Append(o);
    }
    stream.RestartStrip();
}
