#version 450
// args: --target-env vulkan1.2
// Vulkan memory model: explicit scopes/semantics on atomics and barriers.
#extension GL_KHR_memory_scope_semantics : require
#pragma use_vulkan_memory_model
layout(local_size_x = 64) in;

layout(std430, binding = 0) coherent buffer Flags { uint ready; uint data[64]; } flags;
layout(binding = 1, r32ui) uniform coherent uimage2D img;
shared uint sharedCounter;

void main() {
    uint i = gl_LocalInvocationIndex;
    flags.data[i] = i * 3u;
    atomicStore(flags.ready, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    uint r = atomicLoad(flags.ready, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    atomicAdd(sharedCounter, r, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    uint prev = atomicExchange(flags.data[(i + 1u) % 64u], r, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsRelease);
    imageAtomicAdd(img, ivec2(i, 0), prev, gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsRelaxed);
    uint v = imageAtomicLoad(img, ivec2(i, 1), gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsAcquire);
    imageAtomicStore(img, ivec2(i, 2), v + sharedCounter, gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsRelease);
    atomicCompSwap(flags.ready, 1u, 2u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease,
                   gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
}
