#version 450
// Specialization constants: workgroup size ids, scalar constants and spec-constant expressions.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;

layout(constant_id = 2) const int ITERATIONS = 8;
layout(constant_id = 3) const float SCALE = 1.5;
layout(constant_id = 4) const bool USE_FAST_PATH = false;
layout(constant_id = 5) const uint MASK = 0xFFu;
layout(constant_id = 6) const double DSCALE = 2.0lf;
layout(constant_id = 7) const int NEG = -42;

const int DOUBLE_ITERS = ITERATIONS * 2;
const uint SHIFTED = MASK << 4;
const bool NOT_FAST = !USE_FAST_PATH;
const int SELECTED = USE_FAST_PATH ? ITERATIONS : NEG;
const ivec2 PAIR = ivec2(ITERATIONS, NEG);
const int LAST = PAIR.y + PAIR.x;

layout(std430, binding = 0) buffer Data { float values[]; } data;

shared float cache[DOUBLE_ITERS];

void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = data.values[i];
    if (USE_FAST_PATH) {
        v *= SCALE;
    } else {
        for (int k = 0; k < ITERATIONS; ++k) {
            v = v * SCALE + float(k);
        }
    }
    cache[i % uint(DOUBLE_ITERS)] = v;
    barrier();
    data.values[i] = cache[(i + 1u) % uint(DOUBLE_ITERS)] * float(DSCALE) + float(SELECTED + LAST);
    if (NOT_FAST) {
        data.values[i] += float(SHIFTED & MASK) + float(gl_WorkGroupSize.x);
    }
}
