// Multiple render targets plus SV_Depth and SV_Coverage outputs.
struct PSOut {
    float4 albedo : SV_Target0;
    float4 normal : SV_Target1;
    uint material : SV_Target2;
    float depth : SV_Depth;
    uint coverage : SV_Coverage;
};

PSOut main(float4 pos : SV_Position, float3 n : NORMAL, nointerpolation uint mat : MATERIAL,
           uint sampleIndex : SV_SampleIndex, bool front : SV_IsFrontFace) {
    PSOut o;
    o.albedo = float4(1, 0.5, 0.25, 1);
    o.normal = float4(normalize(front ? n : -n) * 0.5 + 0.5, 0);
    o.material = mat;
    o.depth = pos.z * 0.999;
    o.coverage = 1u << sampleIndex;
    return o;
}
