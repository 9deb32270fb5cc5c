// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// Arrays in a cbuffer have a 16-byte element stride (float4 and float arrays alike).
// CHECK: ArrayStride 16
cbuffer Waves : register(b0)
{
    float4 dirs[4];
    float amplitude[4];
};

float4 main(float3 pos : POSITION) : SV_Position
{
    float y = 0;
    [unroll]
    for (int i = 0; i < 4; i++)
        y += amplitude[i] * sin(dot(dirs[i].xy, pos.xz));
    return float4(pos.x, y, pos.z, 1);
}
