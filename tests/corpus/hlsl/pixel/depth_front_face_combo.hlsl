// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// SV_Position, SV_IsFrontFace inputs with SV_Target and SV_Depth outputs as out parameters.
// CHECK: BuiltIn FragDepth
void main(float4 pos : SV_Position, bool front : SV_IsFrontFace,
          out float4 color : SV_Target0, out float depth : SV_Depth)
{
    color = front ? float4(1, 0, 0, 1) : float4(0, 0, 1, 1);
    depth = pos.z;
}
