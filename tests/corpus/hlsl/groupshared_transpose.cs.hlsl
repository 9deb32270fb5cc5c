// Matrix transpose through 2D groupshared tile with bank-conflict padding.
#define TILE 16
StructuredBuffer<float> In : register(t0);
RWStructuredBuffer<float> Out : register(u0);
cbuffer Dims : register(b0) { uint Width; uint Height; };
groupshared float tile[TILE][TILE + 1];

[numthreads(TILE, TILE, 1)]
void main(uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID) {
    uint x = gid.x * TILE + tid.x;
    uint y = gid.y * TILE + tid.y;
    if (x < Width && y < Height) tile[tid.y][tid.x] = In[y * Width + x];
    GroupMemoryBarrierWithGroupSync();
    x = gid.y * TILE + tid.x;
    y = gid.x * TILE + tid.y;
    if (x < Height && y < Width) Out[y * Height + x] = tile[tid.x][tid.y];
    AllMemoryBarrierWithGroupSync();
    DeviceMemoryBarrier();
}
