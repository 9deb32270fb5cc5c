// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// discard is OpKill (Vulkan 1.0).
// CHECK: OpKill
float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    if (length(uv - 0.5) > 0.5)
        discard;
    return float4(uv, 1, 1);
}
