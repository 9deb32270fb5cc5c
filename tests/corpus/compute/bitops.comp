#version 450
// Bit operations: bitfieldExtract (signed and unsigned), bitfieldInsert, bitfieldReverse,
// bitCount, findLSB, findMSB (signed and unsigned), with offsets and counts at the edges.
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    int off = int(i * 5u) % 32;
    int cnt = min(32 - off, int(i * 3u) % 33);
    uint o = i * 10u;
    r[o + 0u] = bitfieldExtract(x, off, cnt);
    r[o + 1u] = uint(bitfieldExtract(int(x), off, cnt));
    r[o + 2u] = bitfieldInsert(x, ~x, off, cnt);
    r[o + 3u] = bitfieldReverse(x);
    r[o + 4u] = uint(bitCount(x));
    r[o + 5u] = uint(findLSB(x));
    r[o + 6u] = uint(findMSB(x));
    r[o + 7u] = uint(findMSB(int(x)));
    r[o + 8u] = (x << (i % 32u)) | (x >> (31u - i % 32u));
    r[o + 9u] = bitfieldExtract(x, 0, 32) ^ bitfieldInsert(0u, x, 0, 0);
}
