// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Several user-semantic inputs as separate parameters get Locations 0, 1, 2 in order.
// CHECK: OpDecorate %{{[\w.]+}} Location 2
float4 main(float4 a : COLOR0, float2 uv : TEXCOORD3, float3 n : NORMAL) : SV_Target
{
    return a * uv.x + float4(n, uv.y);
}
