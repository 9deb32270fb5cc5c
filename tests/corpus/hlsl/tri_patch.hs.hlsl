// Hull shader: tri domain, integer partitioning, ccw output.
struct CP { float4 pos : POSITION; float3 nrm : NORMAL; };
struct PC { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; };
cbuffer T : register(b0) { float Factor; };

PC ConstFunc(InputPatch<CP, 3> ip) {
    PC pc;
    [unroll] for (int e = 0; e < 3; ++e) pc.edges[e] = Factor;
    pc.inside = Factor;
    return pc;
}

[domain("tri")]
[partitioning("integer")]
[outputtopology("triangle_ccw")]
[outputcontrolpoints(3)]
[patchconstantfunc("ConstFunc")]
CP main(InputPatch<CP, 3> ip, uint id : SV_OutputControlPointID) {
    CP o = ip[id];
    o.nrm = normalize(o.nrm);
    return o;
}
