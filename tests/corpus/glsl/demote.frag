#version 450
// args: --target-env vulkan1.1
// demote-to-helper-invocation keeps derivatives valid after "discard".
#extension GL_EXT_demote_to_helper_invocation : require
layout(binding = 0) uniform sampler2D maskTex;
layout(binding = 1) uniform sampler2D colorTex;
layout(location = 0) in vec2 vUV;
layout(location = 0) out vec4 outColor;

void main() {
    float m = texture(maskTex, vUV).r;
    if (m < 0.5) {
        demote;
    }
    vec4 c = textureGrad(colorTex, vUV, dFdx(vUV), dFdy(vUV));
    if (helperInvocationEXT()) {
        c = vec4(0.0);
    }
    outColor = c;
}
