// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// A pixel shader writing a RWStructuredBuffer (a UAV) and counting with InterlockedAdd.
// CHECK: OpAtomicIAdd
RWStructuredBuffer<uint> histogram : register(u1);

float4 main(float4 color : COLOR0) : SV_Target
{
    float luma = dot(color.rgb, float3(0.299, 0.587, 0.114));
    uint bin = min((uint)(luma * 64.0), 63u);
    InterlockedAdd(histogram[bin], 1);
    return color;
}
