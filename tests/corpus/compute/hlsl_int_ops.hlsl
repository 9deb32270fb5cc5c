// HLSL: integer and bit intrinsics (countbits, firstbithigh, firstbitlow, reversebits),
// asuint/asfloat reinterpretation, integer min/max/abs and a ternary chain.
[[vk::binding(0, 0)]] RWStructuredBuffer<int> vals;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> outs;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int v = vals[id.x];
    uint u = asuint(v);
    uint o = id.x * 8;
    outs[o + 0] = countbits(u);
    outs[o + 1] = firstbithigh(u);
    outs[o + 2] = firstbitlow(u);
    outs[o + 3] = reversebits(u);
    outs[o + 4] = asuint(asfloat((u & 0x007FFFFFu) | 0x3F800000u) * 2.0f);
    outs[o + 5] = asuint(abs(v));
    outs[o + 6] = asuint(max(v, -7) * min(v, 9));
    outs[o + 7] = v < 0 ? 1u : (v == 0 ? 2u : (v > 1000 ? 3u : 4u));
}
