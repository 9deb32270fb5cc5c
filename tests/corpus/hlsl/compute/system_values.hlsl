// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// SV_GroupID, SV_GroupThreadID, SV_GroupIndex and SV_DispatchThreadID over a 2x3 dispatch of
// 4x2 groups, as parameters of several types (uint3, uint2, uint).
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(4, 2, 1)]
void main(uint3 gid : SV_GroupID, uint2 tid : SV_GroupThreadID, uint gi : SV_GroupIndex,
          uint3 dtid : SV_DispatchThreadID)
{
    uint slot = dtid.y * 8 + dtid.x;
    Out[slot * 4 + 0] = gid.x + gid.y * 10;
    Out[slot * 4 + 1] = tid.x + tid.y * 10;
    Out[slot * 4 + 2] = gi;
    Out[slot * 4 + 3] = dtid.x + dtid.y * 100;
}
