// Pixel shader with UAV writes (RWTexture2D, RWStructuredBuffer) and early depth stencil.
RWTexture2D<float4> Accum : register(u1);
RWStructuredBuffer<uint> Histogram : register(u2);
Texture2D<float4> Src : register(t0);

[earlydepthstencil]
float4 main(float4 pos : SV_Position) : SV_Target {
    uint2 p = uint2(pos.xy);
    float4 c = Src.Load(int3(p, 0));
    Accum[p] = Accum[p] * 0.9 + c * 0.1;
    uint bucket = (uint)(saturate(dot(c.rgb, float3(0.3, 0.59, 0.11))) * 63.0);
    InterlockedAdd(Histogram[bucket], 1u);
    return c;
}
