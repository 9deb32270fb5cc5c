// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Outputs with interpolation modifiers (nointerpolation, noperspective, centroid, linear).
struct VSOut
{
    float4 pos : SV_Position;
    nointerpolation uint id : INSTANCE;
    noperspective float2 screen : SCREEN;
    centroid float3 normal : NORMAL;
    linear float4 color : COLOR0;
};

VSOut main(float3 pos : POSITION, uint inst : SV_InstanceID)
{
    VSOut o;
    o.pos = float4(pos, 1);
    o.id = inst;
    o.screen = pos.xy;
    o.normal = normalize(pos);
    o.color = float4(1, 0, 0, 1);
    return o;
}
