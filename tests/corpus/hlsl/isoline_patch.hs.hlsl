// Hull shader: isoline domain, fractional_even partitioning.
struct CP { float3 pos : POSITION; };
struct PC { float edges[2] : SV_TessFactor; };

PC ConstFunc(InputPatch<CP, 4> ip) {
    PC pc;
    pc.edges[0] = 8.0;
    pc.edges[1] = 16.0;
    return pc;
}

[domain("isoline")]
[partitioning("fractional_even")]
[outputtopology("line")]
[outputcontrolpoints(4)]
[patchconstantfunc("ConstFunc")]
CP main(InputPatch<CP, 4> ip, uint id : SV_OutputControlPointID) {
    return ip[id];
}
