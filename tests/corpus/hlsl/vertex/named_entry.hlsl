// ARGS: -T vs_6_0 -E VSMain
// GLSLANG: same
// An entry point not called main, next to functions that are never called (not emitted).
// CHECK: OpEntryPoint Vertex %{{\w+}} "VSMain"
float4 unused(float4 x)
{
    return x * 2;
}

float4 PSMain() : SV_Target
{
    return 1;
}

float4 VSMain(float4 pos : POSITION) : SV_Position
{
    return pos;
}
