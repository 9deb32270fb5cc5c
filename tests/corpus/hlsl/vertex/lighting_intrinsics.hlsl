// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Gouraud lighting: normalize, dot, saturate, reflect, pow, lerp, max.
// CHECK: OpExtInstImport "GLSL.std.450"
cbuffer Light : register(b0)
{
    float3 lightDir;
    float shininess;
    float3 eye;
};

struct VSOut
{
    float4 pos : SV_Position;
    float3 color : COLOR0;
};

VSOut main(float3 pos : POSITION, float3 n : NORMAL)
{
    float3 N = normalize(n);
    float3 L = normalize(-lightDir);
    float diffuse = saturate(dot(N, L));
    float3 R = reflect(-L, N);
    float spec = pow(max(dot(R, normalize(eye - pos)), 0.0), shininess);
    VSOut o;
    o.pos = float4(pos, 1);
    o.color = lerp(float3(0.1, 0.1, 0.1), float3(1, 1, 1), diffuse) + spec;
    return o;
}
