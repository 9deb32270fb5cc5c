#version 450
// Transcendental GLSL.std.450 functions: sin, cos, tan, asin, acos, atan, atan2, sinh, cosh,
// tanh, exp, exp2, log, log2, pow, inversesqrt. Implementations differ in the last bits (and
// lavapipe by more), so the comparison uses the tolerance in the job.
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer In { float v[]; };
layout(std430, binding = 1) buffer Out { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = v[i];
    uint o = i * 16u;
    r[o + 0u] = sin(x);
    r[o + 1u] = cos(x);
    r[o + 2u] = tan(x * 0.25);
    r[o + 3u] = asin(clamp(x * 0.2, -1.0, 1.0));
    r[o + 4u] = acos(clamp(x * 0.2, -1.0, 1.0));
    r[o + 5u] = atan(x);
    r[o + 6u] = atan(x, 1.5 - x);
    r[o + 7u] = sinh(x * 0.5);
    r[o + 8u] = cosh(x * 0.5);
    r[o + 9u] = tanh(x);
    r[o + 10u] = exp(x);
    r[o + 11u] = exp2(x);
    r[o + 12u] = log(abs(x) + 0.5);
    r[o + 13u] = log2(abs(x) + 0.5);
    r[o + 14u] = pow(abs(x) + 0.5, 1.75);
    r[o + 15u] = inversesqrt(abs(x) + 0.25);
}
