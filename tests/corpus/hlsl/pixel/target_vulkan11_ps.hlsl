// ARGS: -T ps_6_0 -E main -fspv-target-env=vulkan1.1
// GLSLANG: same
// Vulkan 1.1 (SPIR-V 1.3) with discard (OpKill).
// CHECK: OpKill
float4 main(float4 c : COLOR0) : SV_Target
{
    if (c.a < 0.01)
        discard;
    return c;
}
