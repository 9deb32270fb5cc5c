#version 450
// Push constants of mixed types (std430 offsets, a vec4 and an int array) steering a loop.
layout(local_size_x = 8) in;
layout(push_constant) uniform Params {
    float scale;
    int bias;
    uint count;
    uint pad;
    vec4 weights;
    int steps[4];
} pc;
layout(std430, binding = 0) buffer Data { float d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    float x = d[i];
    for (int k = 0; k < 4; k++) {
        x = x * pc.scale + pc.weights[k] * float(pc.steps[k]);
    }
    d[i] = x + float(pc.bias);
}
