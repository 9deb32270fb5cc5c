#version 450
// args: --target-env vulkan1.2
// Explicitly laid out workgroup memory blocks (GL_EXT_shared_memory_block) aliasing each other.
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 64) in;

shared SharedFloats { float f[64]; } asFloats;
shared SharedBytes { uint8_t bytes[256]; } asBytes;

layout(std430, binding = 0) buffer Out { uint checksum; };

void main() {
    uint i = gl_LocalInvocationIndex;
    asFloats.f[i] = float(i) * 1.5;
    barrier();
    uint c = uint(asBytes.bytes[i * 4u]) | (uint(asBytes.bytes[i * 4u + 3u]) << 24);
    atomicXor(checksum, c);
}
