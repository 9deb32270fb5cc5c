// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// RWBuffer<uint> (a storage texel buffer) and Buffer<float> (a uniform texel buffer).
// CHECK: OpTypeImage %{{\w+}} Buffer
RWBuffer<uint> counters : register(u1);
Buffer<float> weights : register(t0);

float4 main(float4 pos : SV_Position, nointerpolation uint id : ID) : SV_Target
{
    uint c = counters[id];
    counters[id] = c + 1;
    uint n;
    weights.GetDimensions(n);
    return weights.Load(id % n) * (float)c;
}
