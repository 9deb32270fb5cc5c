#version 450
// Fragment-stage storage image writes, atomics and memory qualifiers (OIT-style counter).
layout(binding = 0, r32ui) uniform coherent uimage2D headPointers;
layout(binding = 1, rgba32ui) uniform writeonly restrict uimageBuffer fragmentList;
layout(std430, binding = 2) coherent buffer Counter { uint nextIndex; uint maxNodes; } counter;
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;

void main() {
    uint index = atomicAdd(counter.nextIndex, 1u);
    if (index < counter.maxNodes) {
        uint prev = imageAtomicExchange(headPointers, ivec2(gl_FragCoord.xy), index);
        uvec4 node = uvec4(packUnorm4x8(vColor), floatBitsToUint(gl_FragCoord.z), prev, 0u);
        imageStore(fragmentList, int(index), node);
    }
    memoryBarrierImage();
    outColor = vec4(0.0);
}
