// ARGS: -T ps_6_0 -E main
// ERROR: 8:1: unterminated
// A block comment that never ends.
float4 main() : SV_Target
{
    return 1;
}
/* this comment
   runs to the end of the file
