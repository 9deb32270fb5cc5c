#version 450
// Tiled matrix multiply C = A * B using shared-memory tiles.
#define TILE 16
layout(local_size_x = TILE, local_size_y = TILE) in;

layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
layout(std140, binding = 3) uniform Dims { uint M; uint N; uint K; } dims;

shared float tileA[TILE][TILE];
shared float tileB[TILE][TILE];

void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    uint ty = gl_LocalInvocationID.y;
    uint tx = gl_LocalInvocationID.x;
    float acc = 0.0;

    uint tiles = (dims.K + TILE - 1u) / TILE;
    for (uint t = 0u; t < tiles; ++t) {
        uint ak = t * TILE + tx;
        uint bk = t * TILE + ty;
        tileA[ty][tx] = (row < dims.M && ak < dims.K) ? a[row * dims.K + ak] : 0.0;
        tileB[ty][tx] = (col < dims.N && bk < dims.K) ? b[bk * dims.N + col] : 0.0;
        barrier();
        for (int k = 0; k < TILE; ++k) {
            acc = fma(tileA[ty][k], tileB[k][tx], acc);
        }
        barrier();
    }
    if (row < dims.M && col < dims.N) {
        c[row * dims.N + col] = acc;
    }
}
