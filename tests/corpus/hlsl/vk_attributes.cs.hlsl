// Vulkan-specific HLSL attributes: [[vk::binding]], push constants, specialization constants.
struct PushData { float4 color; uint mode; };
[[vk::push_constant]] PushData pc;
[[vk::constant_id(0)]] const int kIterations = 4;
[[vk::constant_id(1)]] const float kScale = 2.0;
[[vk::constant_id(2)]] const bool kEnable = true;
[[vk::binding(3, 1)]] RWStructuredBuffer<float4> Out;
[[vk::binding(0, 0)]] Texture2D<float4> Tex;
[[vk::binding(1, 0)]] SamplerState Samp;

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 c = pc.color;
    for (int i = 0; i < kIterations; ++i) {
        c = c * kScale + Tex.SampleLevel(Samp, float2(id.xy) / 64.0, i);
    }
    if (kEnable && pc.mode != 0) c = 1.0 - c;
    Out[id.x + id.y * 8] = c;
}
