// ARGS: -T ps_6_0 -E main
// ERROR: 7:13: expected ';'
// A return statement without its `;`.
float4 main() : SV_Target
{
    float4 c = float4(1, 0, 0, 1);
    return c
}
