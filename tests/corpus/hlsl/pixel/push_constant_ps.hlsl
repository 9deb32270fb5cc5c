// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// [[vk::push_constant]] on a ConstantBuffer<T>: material parameters in a pixel shader.
// CHECK: PushConstant
struct Material
{
    float4 baseColor;
    float metallic;
    float roughness;
};

[[vk::push_constant]] ConstantBuffer<Material> mat;

float4 main(float3 n : NORMAL) : SV_Target
{
    float ndl = saturate(dot(normalize(n), float3(0, 0, 1)));
    return mat.baseColor * lerp(ndl, 1.0, mat.metallic) * (1.0 - mat.roughness * 0.5);
}
