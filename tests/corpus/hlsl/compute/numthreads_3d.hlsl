// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// A 2x2x2 group (LocalSize 2 2 2) dispatched twice along z; SV_GroupIndex counts x fastest.
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(2, 2, 2)]
void main(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 gid : SV_GroupID)
{
    Out[gi + 8 * gid.z] = dtid.x + dtid.y * 10 + dtid.z * 100;
}
