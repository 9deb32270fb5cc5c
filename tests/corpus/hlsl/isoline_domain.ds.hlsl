// Domain shader: isoline domain producing curve points.
struct CP { float3 pos : POSITION; };
struct PC { float edges[2] : SV_TessFactor; };
cbuffer VP : register(b0) { float4x4 ViewProj; };

[domain("isoline")]
float4 main(PC pc, float2 t : SV_DomainLocation, const OutputPatch<CP, 4> cp) : SV_Position {
    float u = t.x;
    float3 a = lerp(cp[0].pos, cp[1].pos, u);
    float3 b = lerp(cp[1].pos, cp[2].pos, u);
    float3 c = lerp(cp[2].pos, cp[3].pos, u);
    float3 p = lerp(lerp(a, b, u), lerp(b, c, u), u);
    p.x += t.y * 0.1;
    return mul(ViewProj, float4(p, 1));
}
