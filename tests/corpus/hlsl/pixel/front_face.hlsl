// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// SV_IsFrontFace is BuiltIn FrontFacing (a bool input).
// CHECK: BuiltIn FrontFacing
float4 main(float3 n : NORMAL, bool front : SV_IsFrontFace) : SV_Target
{
    float3 N = front ? n : -n;
    return float4(N * 0.5 + 0.5, 1);
}
