// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// A specialization constant selecting a code path.
// CHECK: SpecId 7
[[vk::constant_id(7)]] const int Mode = 0;

float4 main(float4 color : COLOR0) : SV_Target
{
    if (Mode == 1)
        return color.gbra;
    return color;
}
