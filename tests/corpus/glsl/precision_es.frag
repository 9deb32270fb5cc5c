#version 310 es
// ESSL fragment shader: default precision, mediump/lowp variables and uniforms.
precision mediump float;
precision mediump int;
layout(location = 0) in vec2 vUV;
layout(location = 1) in lowp vec4 vColor;
layout(binding = 0) uniform mediump sampler2D tex;
layout(binding = 1) uniform highp sampler2D heightTex;
layout(std140, binding = 2) uniform Params { lowp float strength; highp vec2 texel; } params;
layout(location = 0) out lowp vec4 fragColor;

void main() {
    highp float h = texture(heightTex, vUV).r;
    mediump float hx = texture(heightTex, vUV + vec2(params.texel.x, 0.0)).r - h;
    mediump float hy = texture(heightTex, vUV + vec2(0.0, params.texel.y)).r - h;
    mediump vec3 n = normalize(vec3(-hx, -hy, params.strength));
    lowp vec4 c = texture(tex, vUV) * vColor;
    fragColor = vec4(c.rgb * (0.5 + 0.5 * n.z), c.a);
}
