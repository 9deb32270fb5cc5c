#version 450
// 64-bit integer atomics on SSBO and shared memory.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Counters {
    uint64_t total;
    int64_t minValue;
    int64_t maxValue;
    uint64_t mask;
} counters;

layout(std430, binding = 1) readonly buffer Samples { int64_t samples[]; };

shared uint64_t localTotal;

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        localTotal = 0ul;
    }
    barrier();
    int64_t s = samples[gl_GlobalInvocationID.x];
    atomicAdd(localTotal, uint64_t(abs(s)));
    atomicMin(counters.minValue, s);
    atomicMax(counters.maxValue, s);
    atomicOr(counters.mask, 1ul << (uint64_t(s) & 63ul));
    atomicAnd(counters.mask, 0xFFFFFFFFFFFFFFFFul);
    atomicXor(counters.mask, 0ul);
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uint64_t old = atomicExchange(localTotal, 0ul);
        atomicAdd(counters.total, old);
        atomicCompSwap(counters.total, 0ul, 0x8000000000000000ul);
    }
}
