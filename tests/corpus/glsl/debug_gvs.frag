// args: --target-env vulkan1.2 -gVS
#version 450
// Fragment shader with NonSemantic.Shader.DebugInfo.100 (-gVS).
layout(location = 0) in vec2 vUV;
layout(location = 0) out vec4 outColor;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform Params { vec4 tint; int mode; float gamma[2]; } params;

struct Tap { vec2 offset; float weight; };

vec4 blur(vec2 uv) {
    Tap taps[3] = Tap[](Tap(vec2(-1.0, 0.0), 0.25), Tap(vec2(0.0), 0.5), Tap(vec2(1.0, 0.0), 0.25));
    vec4 acc = vec4(0.0);
    for (int i = 0; i < 3; ++i) {
        acc += texture(tex, uv + taps[i].offset / 512.0) * taps[i].weight;
    }
    return acc;
}

void main() {
    vec4 c;
    switch (params.mode) {
    case 0: c = texture(tex, vUV); break;
    case 1: c = blur(vUV); break;
    default: c = params.tint; break;
    }
    outColor = pow(c, vec4(params.gamma[0])) * params.tint;
}
