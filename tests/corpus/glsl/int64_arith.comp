#version 450
// 64-bit integer arithmetic. (glslang 12 rejects 64-bit switch selectors, so this
// classifies with if-chains; 64-bit OpSwitch lives in the OpenCL and spvasm corpora.)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;

layout(std430, binding = 0) buffer Keys { int64_t skeys[]; } keys;
layout(std430, binding = 1) buffer UKeys { uint64_t ukeys[]; } ukeys;
layout(std430, binding = 2) buffer Out { int results[]; } outp;

int classifySigned(int64_t k) {
    if (k == -9223372036854775807l - 1l) return -100;
    if (k == -1l) return -1;
    if (k == 4294967296l) return 32;
    if (k == 9223372036854775807l) return 100;
    return int(k & 7l);
}

int classifyUnsigned(uint64_t k) {
    switch (uint(k >> 32)) {
    case 0xFFFFFFFFu: return 64;
    case 1u: return 33;
    default: break;
    }
    uint64_t hi = k * 0x9E3779B97F4A7C15ul;
    hi ^= hi >> 33;
    hi = (hi << 7) | (hi >> 57);
    int64_t s = int64_t(hi) / -3l;
    s = s % 1000l;
    return int(s) + int(bitCount(uint(k)));
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    i64vec2 pair = i64vec2(keys.skeys[i], -keys.skeys[i]);
    u64vec2 upair = u64vec2(ukeys.ukeys[i], ~ukeys.ukeys[i]);
    pair = max(pair, i64vec2(-5l)) + min(pair, i64vec2(5l));
    outp.results[i] = classifySigned(pair.x + pair.y) + classifyUnsigned(upair.x ^ upair.y)
        + int(uint64_t(pair.x) >> 60) + int(packInt2x32(ivec2(1, 2)) & 1l);
}
