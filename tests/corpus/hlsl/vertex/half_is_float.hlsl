// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// half is a 32-bit float without -enable-16bit-types: no Float16 capability.
// CHECK: OpTypeFloat 32
half3 scaleOf(half s)
{
    return half3(s, s * 2, s * 3);
}

float4 main(float3 pos : POSITION) : SV_Position
{
    half3 h = scaleOf(0.5);
    return float4(pos * h, 1);
}
