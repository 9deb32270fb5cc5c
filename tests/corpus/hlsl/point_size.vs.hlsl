// Point sprite vertex shader writing [[vk::builtin("PointSize")]].
cbuffer Cam : register(b0) { float4x4 ViewProj; float PointScale; };
struct VSOut {
    float4 pos : SV_Position;
    [[vk::builtin("PointSize")]] float size : PSIZE;
    float4 color : COLOR0;
};

VSOut main(float3 pos : POSITION, float4 color : COLOR0) {
    VSOut o;
    o.pos = mul(ViewProj, float4(pos, 1));
    o.size = PointScale / max(o.pos.w, 0.1);
    o.color = color;
    return o;
}
