#version 450
// Unsigned 32-bit arithmetic: wrapping +, -, *, / and %, logical shifts, unsigned compares,
// min/max/clamp, and the uaddCarry/usubBorrow/umulExtended builtins.
layout(local_size_x = 4) in;
layout(std430, binding = 0) readonly buffer In { uvec2 pairs[]; };
layout(std430, binding = 1) buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = pairs[i].x, b = pairs[i].y;
    uint o = i * 16u;
    r[o + 0u] = a + b;
    r[o + 1u] = a - b;
    r[o + 2u] = a * b;
    r[o + 3u] = b != 0u ? a / b : 7u;
    r[o + 4u] = b != 0u ? a % b : 7u;
    r[o + 5u] = a >> (b & 31u);
    r[o + 6u] = a << (b & 31u);
    r[o + 7u] = uint(a < b) | uint(a >= b) << 1;
    r[o + 8u] = min(a, b);
    r[o + 9u] = max(a, b);
    r[o + 10u] = clamp(a, 10u, 1000u);
    uint carry;
    r[o + 11u] = uaddCarry(a, b, carry);
    r[o + 12u] = carry;
    uint borrow;
    r[o + 13u] = usubBorrow(a, b, borrow);
    uint hi, lo;
    umulExtended(a, b, hi, lo);
    r[o + 14u] = hi ^ borrow;
    r[o + 15u] = lo;
}
