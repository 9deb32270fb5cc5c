// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// SV_Depth is BuiltIn FragDepth with the DepthReplacing execution mode.
// CHECK: OpExecutionMode %{{\w+}} DepthReplacing
// CHECK: BuiltIn FragDepth
struct PSOut
{
    float4 color : SV_Target;
    float depth : SV_Depth;
};

PSOut main(float4 pos : SV_Position)
{
    PSOut o;
    o.color = float4(pos.xy / 1024.0, 0, 1);
    o.depth = saturate(pos.z * 0.5);
    return o;
}
