// ARGS: -T ps_6_0 -E PSMain
// ERROR: file: entry point
// -E names a function that does not exist.
float4 main() : SV_Target
{
    return 1;
}
