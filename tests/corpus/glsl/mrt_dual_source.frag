#version 450
// Multiple render targets with dual-source blending (location + index).
layout(location = 0) in vec4 vColor;
layout(location = 1) in vec3 vNormal;
layout(location = 2) in float vDepth;

layout(location = 0, index = 0) out vec4 outColor;
layout(location = 0, index = 1) out vec4 outBlendFactor;

void main() {
    outColor = vColor;
    outBlendFactor = vec4(vec3(1.0) - vColor.rgb * 0.5, vDepth);
}
