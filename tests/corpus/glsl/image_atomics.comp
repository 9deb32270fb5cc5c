#version 450
// Image atomics on 1D/2D/3D/cube/array/buffer storage images.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;

layout(binding = 0, r32ui) uniform uimage3D voxels;
layout(binding = 1, r32i) uniform iimage2DArray layers;
layout(binding = 2, r32ui) uniform uimage1D line;
layout(binding = 3, r32ui) uniform uimageBuffer counters;
layout(binding = 4, r32i) uniform iimageCube cube;
layout(binding = 5, r32ui) uniform uimage2DMS msimg;
layout(binding = 6, r32ui) uniform uimage1DArray lineArray;
layout(binding = 7, r32i) uniform iimageCubeArray cubeArray;
layout(binding = 8, rgba8ui) uniform uimage2DMSArray msArray;

void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    uint prev = imageAtomicAdd(voxels, p, 1u);
    imageAtomicMax(layers, p, int(prev));
    imageAtomicMin(layers, p + ivec3(1), -int(prev));
    imageAtomicOr(line, p.x, 1u << (p.y & 31));
    imageAtomicAnd(line, p.x + 1, ~0u);
    imageAtomicXor(counters, p.x * 16 + p.y, prev);
    imageAtomicExchange(cube, ivec3(p.xy, p.z % 6), 7);
    imageAtomicCompSwap(msimg, p.xy, p.z & 3, 0u, prev);
    imageAtomicAdd(lineArray, p.xy, 2u);
    imageAtomicAdd(cubeArray, ivec3(p.xy, p.z), 3);
    uvec4 s = imageLoad(msArray, p, 1);
    imageStore(msArray, p, 0, s + uvec4(imageSamples(msArray)));
}
