// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// SV_InstanceID (BuiltIn InstanceIndex) offsets each instance.
// CHECK: BuiltIn InstanceIndex
float4 main(float3 pos : POSITION, uint inst : SV_InstanceID) : SV_Position
{
    float3 offset = float3((float)(inst % 4), (float)(inst / 4), 0) * 2.5;
    return float4(pos + offset, 1);
}
