// Domain shader: quad domain bilinear interpolation + displacement map.
struct HSOut { float3 pos : POSITION; float2 uv : TEXCOORD0; };
struct PatchConst {
    float edges[4] : SV_TessFactor;
    float inside[2] : SV_InsideTessFactor;
    float3 center : CENTER;
};
struct DSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
Texture2D<float> Height : register(t0);
SamplerState Samp : register(s0);
cbuffer Cam : register(b0) { float4x4 ViewProj; float Scale; };

[domain("quad")]
DSOut main(PatchConst pc, float2 uv : SV_DomainLocation, const OutputPatch<HSOut, 4> patch) {
    float3 p = lerp(lerp(patch[0].pos, patch[1].pos, uv.x), lerp(patch[3].pos, patch[2].pos, uv.x), uv.y);
    float2 t = lerp(lerp(patch[0].uv, patch[1].uv, uv.x), lerp(patch[3].uv, patch[2].uv, uv.x), uv.y);
    p.y += Height.SampleLevel(Samp, t, 0) * Scale + pc.center.y * 0.0;
    DSOut o;
    o.pos = mul(ViewProj, float4(p, 1));
    o.uv = t;
    return o;
}
