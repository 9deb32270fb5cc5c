// ARGS: -T ps_6_0 -E main
// ERROR: 8:1: #endif
// #endif with no open conditional.
float4 main() : SV_Target
{
    return 0.5;
}
#endif
