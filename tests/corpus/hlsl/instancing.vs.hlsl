// SV_VertexID / SV_InstanceID driven fullscreen-quad instancing with StructuredBuffer.
struct InstanceData { float4 rect; float4 color; };
StructuredBuffer<InstanceData> Instances : register(t0);

struct VSOut {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    nointerpolation float4 color : COLOR0;
};

VSOut main(uint vid : SV_VertexID, uint iid : SV_InstanceID) {
    InstanceData inst = Instances[iid];
    float2 corner = float2(vid & 1, vid >> 1);
    VSOut o;
    o.pos = float4(lerp(inst.rect.xy, inst.rect.zw, corner), 0.0, 1.0);
    o.uv = corner;
    o.color = inst.color;
    return o;
}
