// GPU skinning with blend indices/weights and a bone cbuffer array.
cbuffer Bones : register(b0) {
    float4x3 BoneMatrices[64];
};
cbuffer Camera : register(b1) { float4x4 ViewProj; };

struct VSIn {
    float3 pos : POSITION;
    float3 nrm : NORMAL;
    uint4 idx : BLENDINDICES;
    float4 wgt : BLENDWEIGHT;
};
struct VSOut {
    float4 pos : SV_Position;
    float3 nrm : NORMAL;
    float clip : SV_ClipDistance0;
};

VSOut main(VSIn v) {
    float3 p = 0, n = 0;
    [unroll]
    for (int i = 0; i < 4; ++i) {
        p += mul(float4(v.pos, 1.0), BoneMatrices[v.idx[i]]) * v.wgt[i];
        n += mul(v.nrm, (float3x3)BoneMatrices[v.idx[i]]) * v.wgt[i];
    }
    VSOut o;
    o.pos = mul(ViewProj, float4(p, 1.0));
    o.nrm = normalize(n);
    o.clip = p.y;
    return o;
}
