#version 450
// 32-bit float arithmetic and the exactly rounded GLSL.std.450 functions: +, -, *, /, sqrt,
// floor/ceil/trunc/round-even/fract, abs/sign, min/max/clamp, step, fma, ordered and unordered
// comparisons with NaN, isnan/isinf, conversions. Every result is `precise` so that no
// implementation contracts a*b+c.
layout(local_size_x = 4) in;
layout(std430, binding = 0) readonly buffer In { vec2 pairs[]; };
layout(std430, binding = 1) buffer Out { float r[]; };
layout(std430, binding = 2) buffer Flags { int f[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float a = pairs[i].x, b = pairs[i].y;
    uint o = i * 16u;
    precise float s = a + b;
    precise float d = a - b;
    precise float m = a * b;
    precise float q = a / b;
    // Results GLSL leaves undefined for NaN operands are replaced by -1.
    bool n = isnan(a) || isnan(b);
    r[o + 0u] = s;
    r[o + 1u] = d;
    r[o + 2u] = m;
    r[o + 3u] = q;
    r[o + 4u] = sqrt(abs(a));
    r[o + 5u] = floor(a) + ceil(b);
    r[o + 6u] = trunc(a) - roundEven(b);
    r[o + 7u] = fract(a);
    r[o + 8u] = sign(b) * abs(a);
    r[o + 9u] = n ? -1.0 : min(a, b);
    r[o + 10u] = n ? -1.0 : max(a, b);
    r[o + 11u] = n ? -1.0 : clamp(a, -1.5, 2.5);
    r[o + 12u] = n ? -1.0 : step(b, a);
    r[o + 13u] = fma(a, b, 1.0);
    r[o + 14u] = n ? -1.0 : float(int(clamp(a, -1000.0, 1000.0))) + float(uint(clamp(b, 0.0, 1000.0)));
    r[o + 15u] = -a;
    f[i] = int(a < b) | int(a <= b) << 1 | int(a == b) << 2 | int(a != b) << 3 |
           int(a > b) << 4 | int(a >= b) << 5 | int(isnan(a)) << 6 | int(isinf(b)) << 7;
}
