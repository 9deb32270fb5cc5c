#version 450
// Atomics on a storage buffer and on shared memory: add (a histogram), min, max, and, or, xor,
// compare-exchange counting and exchange; every final value is independent of the order.
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Hist { uint hist[16]; };
layout(std430, binding = 2) buffer Acc { uint total; uint lo; uint hi; uint ands; uint ors; uint xors; uint cas; int smin; };
layout(std430, binding = 3) buffer PerGroup { uint wg[]; };
shared uint s_count;
void main() {
    uint x = v[gl_GlobalInvocationID.x];
    if (gl_LocalInvocationIndex == 0u) s_count = 0u;
    barrier();
    atomicAdd(hist[x % 16u], 1u);
    atomicAdd(total, x);
    atomicMin(lo, x);
    atomicMax(hi, x);
    atomicAnd(ands, x | 0xF0000000u);
    atomicOr(ors, x & 0x0FF0u);
    atomicXor(xors, x);
    atomicMin(smin, int(x) - 5000);
    if (x % 3u == 0u) {
        uint seen = cas;
        while (true) {
            uint prev = atomicCompSwap(cas, seen, seen + 1u);
            if (prev == seen) break;
            seen = prev;
        }
    }
    atomicAdd(s_count, x & 1u);
    barrier();
    if (gl_LocalInvocationIndex == 0u) wg[gl_WorkGroupID.x] = atomicExchange(s_count, 0u);
}
