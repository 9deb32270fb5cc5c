#version 450
// 8- and 16-bit integer arithmetic and storage.
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 32) in;

layout(std430, binding = 0) readonly buffer Src { i8vec4 bytes[]; };
layout(std430, binding = 1) buffer Dst { uint16_t flags[64]; int16_t sums[]; } dst;

void main() {
    uint i = gl_GlobalInvocationID.x;
    i8vec4 b = bytes[i];
    int16_t acc = int16_t(0);
    for (int k = 0; k < 4; ++k) {
        acc += int16_t(b[k]) * int16_t(3);
    }
    uint8_t u = uint8_t(b.x) & uint8_t(0x7f);
    uint16_t f = uint16_t(u) << 4us;
    f |= uint16_t(65535) >> 12us;
    int8_t neg = -int8_t(127) - int8_t(1);
    dst.sums[i] = acc + int16_t(neg);
    dst.flags[i % 64u] = f ^ uint16_t(0xAAAA);
}
