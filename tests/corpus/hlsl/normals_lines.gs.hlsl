// Debug normals: triangle input, LineStream output.
cbuffer VP : register(b0) { float4x4 ViewProj; float Length; };
struct GSIn { float3 pos : POSITION; float3 nrm : NORMAL; };
struct GSOut { float4 pos : SV_Position; float4 color : COLOR; };

[maxvertexcount(6)]
void main(triangle GSIn input[3], inout LineStream<GSOut> lines) {
    for (uint i = 0; i < 3; ++i) {
        GSOut a, b;
        a.pos = mul(ViewProj, float4(input[i].pos, 1));
        a.color = float4(0, 1, 0, 1);
        b.pos = mul(ViewProj, float4(input[i].pos + input[i].nrm * Length, 1));
        b.color = float4(1, 1, 0, 1);
        lines.Append(a);
        lines.Append(b);
        lines.RestartStrip();
    }
}
