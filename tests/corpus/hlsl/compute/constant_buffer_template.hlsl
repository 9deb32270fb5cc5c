// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// ConstantBuffer<T> in descriptor set 1 (register space1), members reached through the
// variable like a struct.
struct Light
{
    float3 position;
    float radius;
    float4 color;
    int enabled;
};

ConstantBuffer<Light> light : register(b0, space1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float3 p = float3(1, 1, 1);
    float3 d = light.position - p;
    Out[0] = dot(d, d);
    Out[1] = light.radius * light.radius;
    Out[2] = light.enabled != 0 ? light.color.x : -1.0;
    Out[3] = light.color.a;
}
