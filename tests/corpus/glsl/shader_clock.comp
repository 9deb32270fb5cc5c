#version 450
// Shader clocks (subgroup and device scope) used for crude profiling.
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 32) in;

layout(std430, binding = 0) buffer Timing { uint64_t start[32]; uvec2 split[32]; uint64_t device; } timing;

void main() {
    uint i = gl_LocalInvocationIndex;
    uint64_t t0 = clockARB();
    float x = float(i);
    for (int k = 0; k < 100; ++k) {
        x = sin(x) * 1.0001 + 0.5;
    }
    uint64_t t1 = clockARB();
    timing.start[i] = t1 - t0 + uint64_t(x > 100.0);
    timing.split[i] = clock2x32ARB();
    if (i == 0u) {
        timing.device = clockRealtimeEXT();
        timing.split[0] ^= clockRealtime2x32EXT();
    }
}
