#version 450
// Alpha-tested foliage with discard.
layout(binding = 0) uniform sampler2D leafTex;
layout(push_constant) uniform PC { float cutoff; } pc;
layout(location = 0) in vec2 vUV;
layout(location = 1) in vec3 vNormal;
layout(location = 0) out vec4 outColor;

void main() {
    vec4 c = texture(leafTex, vUV);
    if (c.a < pc.cutoff) {
        discard;
    }
    vec3 n = gl_FrontFacing ? vNormal : -vNormal;
    outColor = vec4(c.rgb * max(n.y, 0.2), 1.0);
}
