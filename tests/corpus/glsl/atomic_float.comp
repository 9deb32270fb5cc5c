#version 450
// args: --target-env vulkan1.1
// Floating-point atomics (GL_EXT_shader_atomic_float): add/exchange on buffers, shared and images.
#extension GL_EXT_shader_atomic_float : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Accum { float total; float cells[64]; } acc;
layout(binding = 1, r32f) uniform image2D density;
shared float localSum;

void main() {
    uint i = gl_LocalInvocationIndex;
    if (i == 0u) localSum = 0.0;
    barrier();
    float contribution = float(i) * 0.125;
    atomicAdd(localSum, contribution);
    atomicAdd(acc.cells[i], contribution);
    imageAtomicAdd(density, ivec2(i % 8u, i / 8u), contribution);
    barrier();
    if (i == 0u) {
        float old = atomicExchange(acc.total, localSum);
        imageAtomicExchange(density, ivec2(0), old);
        float l = atomicLoad(acc.cells[0], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        atomicStore(acc.cells[1], l, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    }
}
