#version 450
// 64-bit floats: arithmetic, sqrt, floor, conversions to and from 32-bit types.
layout(local_size_x = 2) in;
layout(std430, binding = 0) readonly buffer In { dvec2 pairs[]; };
layout(std430, binding = 1) buffer Out { double r[]; };
layout(std430, binding = 2) buffer Conv { float fs[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    double a = pairs[i].x, b = pairs[i].y;
    uint o = i * 8u;
    precise double s = a + b;
    precise double m = a * b;
    precise double q = a / b;
    r[o + 0u] = s;
    r[o + 1u] = m;
    r[o + 2u] = q;
    r[o + 3u] = sqrt(abs(a));
    r[o + 4u] = floor(a);
    r[o + 5u] = double(int(clamp(b, -1e9, 1e9)));
    r[o + 6u] = min(a, b);
    r[o + 7u] = double(float(a));
    fs[i] = float(a * b);
}
