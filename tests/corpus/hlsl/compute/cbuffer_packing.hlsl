// ARGS: -T cs_6_0 -E main -fspv-target-env=vulkan1.1
// GLSLANG: differs: glslang lays cbuffers out in std140 (the float3 at offset 16); DXC's
// relaxed layout packs it at offset 4 like HLSL, so the same buffer reads differently
// HLSL cbuffer packing: a float3 after a float starts at offset 4 (it does not cross a
// 16-byte boundary), the next float2 at 16, the float after it at 24. Vulkan 1.1 makes the
// relaxed block layout core.
cbuffer Packed : register(b1)
{
    float a;
    float3 b;
    float2 c;
    float d;
};

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = a;
    Out[1] = b.x;
    Out[2] = b.z;
    Out[3] = c.y;
    Out[4] = d;
}
