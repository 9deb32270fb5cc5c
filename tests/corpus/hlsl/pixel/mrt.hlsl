// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Multiple render targets: SV_Target0 and SV_Target1 in a struct are Locations 0 and 1.
// CHECK: OpDecorate %{{[\w.]+}} Location 1
struct PSOut
{
    float4 color : SV_Target0;
    float4 normal : SV_Target1;
};

PSOut main(float3 n : NORMAL, float4 c : COLOR0)
{
    PSOut o;
    o.color = c;
    o.normal = float4(normalize(n) * 0.5 + 0.5, 1);
    return o;
}
