#version 450
// Uniform texel buffers (samplerBuffer) and storage texel buffers (imageBuffer).
layout(local_size_x = 128) in;

layout(binding = 0) uniform samplerBuffer positions;
layout(binding = 1) uniform isamplerBuffer indices;
layout(binding = 2) uniform usamplerBuffer flags;
layout(binding = 3, rgba32f) uniform writeonly imageBuffer outPositions;
layout(binding = 4, r32i) uniform iimageBuffer outIndices;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i >= textureSize(positions)) return;
    vec4 p = texelFetch(positions, i);
    int idx = texelFetch(indices, i).x;
    uint f = texelFetch(flags, idx).x;
    if ((f & 1u) != 0u) {
        p.xyz = -p.xyz;
    }
    imageStore(outPositions, i, p);
    imageStore(outIndices, i, ivec4(idx + imageSize(outIndices)));
}
