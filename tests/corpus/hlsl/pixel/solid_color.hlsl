// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// The smallest pixel shader: a constant SV_Target (Location 0), origin upper left.
// CHECK: OpEntryPoint Fragment %{{\w+}} "main"
// CHECK: OpExecutionMode %{{\w+}} OriginUpperLeft
// CHECK: OpDecorate %{{[\w.]+}} Location 0
float4 main() : SV_Target
{
    return float4(1, 0.5, 0.25, 1);
}
