#version 450
// Simple textured + vertex-colored fragment shader.
layout(location = 0) in vec2 vUV;
layout(location = 1) in vec4 vColor;
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = texture(albedo, vUV) * vColor;
}
