// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// SV_Position as a pixel shader input is BuiltIn FragCoord.
// CHECK: BuiltIn FragCoord
float4 main(float4 pos : SV_Position) : SV_Target
{
    uint2 cell = (uint2)pos.xy / 8;
    return ((cell.x + cell.y) % 2 == 0) ? float4(1, 1, 1, 1) : float4(0, 0, 0, 1);
}
