// Hull shader: quad domain, fractional_odd partitioning, patch constant function.
struct VSOut { float3 pos : POSITION; float2 uv : TEXCOORD0; };
struct HSOut { float3 pos : POSITION; float2 uv : TEXCOORD0; };
struct PatchConst {
    float edges[4] : SV_TessFactor;
    float inside[2] : SV_InsideTessFactor;
    float3 center : CENTER;
};
cbuffer Tess : register(b0) { float3 Eye; float MaxFactor; };

float factorFor(float3 a, float3 b) {
    return clamp(MaxFactor / distance(Eye, (a + b) * 0.5), 1.0, MaxFactor);
}

PatchConst PatchMain(InputPatch<VSOut, 4> patch, uint pid : SV_PrimitiveID) {
    PatchConst pc;
    pc.edges[0] = factorFor(patch[3].pos, patch[0].pos);
    pc.edges[1] = factorFor(patch[0].pos, patch[1].pos);
    pc.edges[2] = factorFor(patch[1].pos, patch[2].pos);
    pc.edges[3] = factorFor(patch[2].pos, patch[3].pos);
    pc.inside[0] = max(pc.edges[1], pc.edges[3]);
    pc.inside[1] = max(pc.edges[0], pc.edges[2]);
    pc.center = (patch[0].pos + patch[1].pos + patch[2].pos + patch[3].pos) * 0.25 + pid * 0.0;
    return pc;
}

[domain("quad")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(4)]
[patchconstantfunc("PatchMain")]
[maxtessfactor(64.0)]
HSOut main(InputPatch<VSOut, 4> patch, uint i : SV_OutputControlPointID) {
    HSOut o;
    o.pos = patch[i].pos;
    o.uv = patch[i].uv;
    return o;
}
