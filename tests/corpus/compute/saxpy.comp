#version 450
// y = a * x + y over n floats (a and n as push constants). The SAXPY benchmark runs it over
// 16M floats.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) {
        y[i] = pc.a * x[i] + y[i];
    }
}
