// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// The smallest vertex shader: a POSITION input (Location 0) returned as SV_Position.
// CHECK: OpEntryPoint Vertex %{{\w+}} "main"
// CHECK: BuiltIn Position
float4 main(float4 pos : POSITION) : SV_Position
{
    return pos;
}
