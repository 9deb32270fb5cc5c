// args: --target-env vulkan1.1 -gVS
// Compute shader with NonSemantic.Shader.DebugInfo.100 from HLSL.
struct Item { float3 value; uint key; };
RWStructuredBuffer<Item> Items : register(u0);

uint hash(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352d;
    x ^= x >> 15;
    return x;
}

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Item it = Items[id.x];
    it.key = hash(it.key + id.x);
    it.value *= (it.key & 1) ? -1.0 : 1.0;
    Items[id.x] = it;
}
