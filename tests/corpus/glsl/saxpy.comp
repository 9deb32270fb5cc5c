#version 450
// Classic y = a*x + y with a push-constant scalar and bounds check.
layout(local_size_x = 64) in;

layout(push_constant) uniform Params {
    float a;
    uint n;
} pc;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) {
        return;
    }
    y[i] = pc.a * x[i] + y[i];
}
