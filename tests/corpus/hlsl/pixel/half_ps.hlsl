// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// half inputs, locals and output are 32-bit floats (no Float16 capability).
// CHECK: OpTypeFloat 32
half4 main(half4 c : COLOR0) : SV_Target
{
    half3 h = c.rgb * (half)0.5;
    return half4(h, c.a);
}
