// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Integer inputs converted to float (unorm-style decode) and bool/int conversions.
struct VSOut
{
    float4 pos : SV_Position;
    float4 color : COLOR0;
};

VSOut main(int3 pos : POSITION, uint packed : COLOR0)
{
    VSOut o;
    o.pos = float4((float3)pos / 32767.0, 1);
    o.color = float4(packed & 0xFF, (packed >> 8) & 0xFF, (packed >> 16) & 0xFF, packed >> 24) / 255.0;
    bool far = pos.z > 1000;
    o.pos.w += (float)far;
    return o;
}
