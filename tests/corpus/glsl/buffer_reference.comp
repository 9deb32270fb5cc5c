#version 460
// args: --target-env vulkan1.2
// Pointer chasing through GL_EXT_buffer_reference: linked lists and arrays of structs.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
    vec4 payload;
    Node next;
    uint id;
};

layout(buffer_reference, std430) readonly buffer FloatArray {
    float data[];
};

layout(push_constant) uniform Roots {
    Node head;
    FloatArray weights;
    uint64_t rawAddress;
} roots;

layout(std430, binding = 0) buffer Result { vec4 sum; uint visited; } result;

void main() {
    Node n = roots.head;
    vec4 acc = vec4(0.0);
    uint count = 0u;
    while (uint64_t(n) != 0ul && count < 64u) {
        acc += n.payload * roots.weights.data[n.id];
        n = n.next;
        ++count;
    }
    FloatArray alias = FloatArray(roots.rawAddress + 16ul);
    acc.w += alias.data[gl_LocalInvocationIndex];
    result.sum = acc;
    atomicAdd(result.visited, count);
}
