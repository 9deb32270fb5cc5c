// ARGS: -T ps_6_0 -E main
// ERROR: 13:12: cannot convert
// Returning a struct from a function declared to return float4.
struct Color
{
    float4 rgba;
};

float4 main() : SV_Target
{
    Color c;
    c.rgba = 1;
    return c;
}
