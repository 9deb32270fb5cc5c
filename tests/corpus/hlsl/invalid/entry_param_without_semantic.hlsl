// ARGS: -T vs_6_0 -E main
// ERROR: 4:42: semantic
// An entry point parameter without a semantic.
float4 main(float4 pos : POSITION, float scale) : SV_Position
{
    return pos * scale;
}
