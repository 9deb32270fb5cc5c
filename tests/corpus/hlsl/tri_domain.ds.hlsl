// Domain shader: tri domain barycentric interpolation.
struct CP { float4 pos : POSITION; float3 nrm : NORMAL; };
struct PC { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; };
struct DSOut { float4 pos : SV_Position; float3 nrm : NORMAL; };

[domain("tri")]
DSOut main(PC pc, float3 bary : SV_DomainLocation, const OutputPatch<CP, 3> patch) {
    DSOut o;
    o.pos = patch[0].pos * bary.x + patch[1].pos * bary.y + patch[2].pos * bary.z;
    o.nrm = normalize(patch[0].nrm * bary.x + patch[1].nrm * bary.y + patch[2].nrm * bary.z);
    o.pos.w += pc.inside * 0.0;
    return o;
}
