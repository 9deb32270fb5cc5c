#version 450
// 16-bit float inputs/outputs and arithmetic in a fragment shader.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(location = 0) in f16vec4 vColor;
layout(location = 1) in f16vec2 vUV;
layout(location = 0) out f16vec4 outColor;
layout(binding = 0) uniform sampler2D tex;

void main() {
    f16vec4 t = f16vec4(texture(tex, vec2(vUV)));
    f16vec4 c = t * vColor;
    c.rgb = clamp(c.rgb * float16_t(1.5), f16vec3(0.0), f16vec3(1.0));
    outColor = c;
}
