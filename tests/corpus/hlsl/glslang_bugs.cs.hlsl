// valid: no
// Valid HLSL that glslang 12 lowers to SPIR-V rejected by spirv-val:
//  - ldexp() with a float exponent emits GLSL.std.450 Ldexp with a float Exp operand;
//  - Texture2D.GatherCmp emits OpImageDrefGather with a Bias image operand (only legal on ImplicitLod);
//  - Interlocked* with an int literal on a uint destination emits OpAtomicIAdd with a mismatched Value type.
RWStructuredBuffer<float> F : register(u0);
RWByteAddressBuffer Counters : register(u1);
Texture2D<float> Depth : register(t0);
SamplerComparisonState CmpSamp : register(s0);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    F[id.x] = ldexp(F[id.x], 2.0);
    Counters.InterlockedAdd(0, 1);
    F[id.x + 1] = Depth.GatherCmp(CmpSamp, float2(id.xy) / 16.0, 0.5).x;
}
