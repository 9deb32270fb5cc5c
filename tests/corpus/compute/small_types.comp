#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
// 8- and 16-bit integers and half floats in storage buffers: wrapping arithmetic at their
// width, sign and zero extension, and f16 arithmetic rounded to half precision.
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B8 { int8_t s8[]; };
layout(std430, binding = 1) buffer U8 { uint8_t u8[]; };
layout(std430, binding = 2) buffer B16 { int16_t s16[]; };
layout(std430, binding = 3) buffer H { float16_t h[]; };
layout(std430, binding = 4) buffer Wide { int w[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int8_t a = s8[i];
    uint8_t b = u8[i];
    int16_t c = s16[i];
    float16_t x = h[i];
    s8[i] = a * int8_t(3) + int8_t(100);
    u8[i] = b + uint8_t(200);
    s16[i] = c * int16_t(-7);
    precise float16_t y = x * float16_t(3.0) + float16_t(0.5);
    h[i] = y;
    w[i * 4u + 0u] = int(a);
    w[i * 4u + 1u] = int(b);
    w[i * 4u + 2u] = int(c) >> 2;
    w[i * 4u + 3u] = int(float(x) * 16.0);
}
