// ARGS: -T hs_6_0 -E main
// ERROR: 1:1: not supported yet
// The hull shader profile is outside this frontend's scope (reported at 1:1).
float4 main() : SV_Position
{
    return 0;
}
