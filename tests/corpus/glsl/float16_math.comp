#version 450
// Half-precision arithmetic with 16-bit storage buffers.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Halves {
    f16vec4 colors[];
};

layout(push_constant) uniform PC { float16_t gain; float16_t bias; } pc;

f16vec3 tonemap(f16vec3 c) {
    return c / (c + f16vec3(1.0hf));
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec4 c = colors[i];
    c.rgb = tonemap(c.rgb * pc.gain + pc.bias);
    float16_t l = dot(c.rgb, f16vec3(0.25hf, 0.5hf, 0.25hf));
    c.a = clamp(l, float16_t(0.0), float16_t(1.0));
    c = mix(c, f16vec4(sqrt(abs(c.xyz)), c.w), float16_t(0.5));
    f16mat2 m = f16mat2(c.x, c.y, c.z, c.w);
    c.xy = m * c.zw;
    colors[i] = c + float16_t(-0.0) * float16_t(65504.0);
}
