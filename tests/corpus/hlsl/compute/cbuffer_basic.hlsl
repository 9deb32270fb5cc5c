// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// A cbuffer (Uniform, Block) at register(b2): members at std140 offsets that HLSL packing
// gives as well (float4 at 0, float 16, int 20, float2 24, float3 32, uint 44).
cbuffer Params : register(b2)
{
    float4 color;
    float scale;
    int count;
    float2 offset;
    float3 dir;
    uint flags;
};

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = color.y * scale;
    Out[1] = (float)count;
    Out[2] = offset.x + offset.y;
    Out[3] = dot(dir, float3(1, 1, 1));
    Out[4] = (float)(flags & 0xF);
    Out[5] = color.w;
}
