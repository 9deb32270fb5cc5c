// HLSL: y = a * x + y with a constant buffer (a uniform buffer) and structured buffers.
struct Params { float a; uint n; float2 pad; };
[[vk::binding(0, 0)]] ConstantBuffer<Params> params;
[[vk::binding(1, 0)]] StructuredBuffer<float> xs;
[[vk::binding(2, 0)]] RWStructuredBuffer<float> ys;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x < params.n) {
        precise float p = params.a * xs[id.x];
        ys[id.x] = p + ys[id.x];
    }
}
