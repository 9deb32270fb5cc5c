// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// nointerpolation inputs are Flat (and integer inputs must be).
// CHECK: OpDecorate %{{[\w.]+}} Flat
struct PSIn
{
    float4 pos : SV_Position;
    nointerpolation uint material : MATERIAL;
    nointerpolation float4 tint : TINT;
};

float4 main(PSIn i) : SV_Target
{
    return i.tint * (float)(i.material + 1) * 0.1;
}
