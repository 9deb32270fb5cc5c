// args: --target-env vulkan1.1
// Wave intrinsics map to subgroup operations.
StructuredBuffer<float> Input : register(t0);
RWStructuredBuffer<float4> Output : register(u0);
RWStructuredBuffer<uint> Counter : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float v = Input[id.x];
    uint lane = WaveGetLaneIndex();
    uint lanes = WaveGetLaneCount();
    bool first = WaveIsFirstLane();
    float sum = WaveActiveSum(v);
    float prod = WaveActiveProduct(v);
    float mn = WaveActiveMin(v);
    float mx = WaveActiveMax(v);
    float prefix = WavePrefixSum(v);
    float prefixProd = WavePrefixProduct(v);
    uint bits = WaveActiveBitOr(asuint(v)) ^ WaveActiveBitAnd(asuint(v)) ^ WaveActiveBitXor(asuint(v));
    uint4 ballot = WaveActiveBallot(v > 0.0);
    uint count = WaveActiveCountBits(v > 0.0);
    uint prefixCount = WavePrefixCountBits(v > 0.0);
    bool allPos = WaveActiveAllTrue(v > 0.0);
    bool anyNeg = WaveActiveAnyTrue(v < 0.0);
    bool same = WaveActiveAllEqual(v);
    float firstV = WaveReadLaneFirst(v);
    float other = WaveReadLaneAt(v, (lane + 1) % lanes);
    float quad = QuadReadAcrossX(v) + QuadReadAcrossY(v) + QuadReadAcrossDiagonal(v) + QuadReadLaneAt(v, 2);
    if (first) {
        InterlockedAdd(Counter[0], count);
    }
    Output[id.x] = float4(sum + prod, mn + mx, prefix + prefixProd + firstV + other + quad,
                          float(bits + ballot.x + prefixCount) + (allPos ? 1 : 0) + (anyNeg ? 2 : 0) + (same ? 4 : 0));
}
