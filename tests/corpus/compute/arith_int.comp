#version 450
// Signed 32-bit arithmetic: +, -, *, /, % (truncating), negation, min/max/abs/clamp/sign,
// arithmetic shifts, comparisons; operand pairs include negatives and extremes.
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { ivec2 pairs[]; };
layout(std430, set = 0, binding = 1) buffer Out { int r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int a = pairs[i].x, b = pairs[i].y;
    uint o = i * 16u;
    r[o + 0u] = a + b;
    r[o + 1u] = a - b;
    r[o + 2u] = a * b;
    r[o + 3u] = b != 0 ? a / b : 12345;
    // GLSL leaves % undefined for negative operands (and lavapipe's result is the truncated
    // remainder, not OpSMod's floored one), so only non-negative pairs are compared here; the
    // lowering's OpSMod is checked against the SPIR-V spec in tests/lower_special.rs.
    r[o + 4u] = (a >= 0 && b > 0) ? a % b : 12345;
    r[o + 5u] = -a;
    r[o + 6u] = min(a, b);
    r[o + 7u] = max(a, b);
    r[o + 8u] = abs(b);
    r[o + 9u] = clamp(a, -100, 100);
    r[o + 10u] = sign(a);
    r[o + 11u] = a >> (b & 31);
    r[o + 12u] = a << (b & 31);
    r[o + 13u] = int(a < b) | int(a <= b) << 1 | int(a == b) << 2 | int(a > b) << 3;
    r[o + 14u] = a ^ b;
    r[o + 15u] = ~a & b | a;
}
