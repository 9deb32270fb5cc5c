#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit integers: signed and unsigned arithmetic, shifts, division, conversions.
layout(local_size_x = 4) in;
layout(std430, binding = 0) readonly buffer In { i64vec2 pairs[]; };
layout(std430, binding = 1) buffer Out { int64_t r[]; };
layout(std430, binding = 2) buffer OutU { uint64_t u[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t a = pairs[i].x, b = pairs[i].y;
    uint o = i * 8u;
    r[o + 0u] = a + b;
    r[o + 1u] = a * b;
    r[o + 2u] = b != 0l ? a / b : 0l;
    // % only on non-negative operands: GLSL leaves the rest undefined (see arith_int.comp).
    r[o + 3u] = (a >= 0l && b > 0l) ? a % b : 0l;
    r[o + 4u] = a >> (b & 63l);
    r[o + 5u] = int64_t(int(a));
    r[o + 6u] = min(a, b);
    r[o + 7u] = abs(b);
    uint64_t ua = uint64_t(a), ub = uint64_t(b);
    u[i * 4u + 0u] = ua * ub;
    u[i * 4u + 1u] = ub != 0ul ? ua / ub : 0ul;
    u[i * 4u + 2u] = ua >> (ub & 63ul);
    u[i * 4u + 3u] = max(ua, ub);
}
