// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// RWByteAddressBuffer Store4/Load2 in a pixel shader.
RWByteAddressBuffer traceLog : register(u1);

float4 main(float4 pos : SV_Position) : SV_Target
{
    uint2 p = uint2(pos.xy);
    uint addr = (p.y * 256 + p.x) * 16;
    traceLog.Store4(addr, uint4(p, asuint(pos.z), 1));
    uint2 back = traceLog.Load2(addr);
    return float4(back, 0, 1) / 256.0;
}
