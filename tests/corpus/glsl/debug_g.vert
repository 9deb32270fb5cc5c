// args: -g
#version 450
// Vertex shader compiled with -g (OpLine/OpSource with text).
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(binding = 0) uniform UBO { mat4 mvp; mat4 model; vec4 lightDir; } ubo;
layout(location = 0) out float diffuse;
layout(location = 1) out vec3 worldNormal;

float lambert(vec3 n, vec3 l) {
    return max(dot(n, l), 0.0);
}

void main() {
    worldNormal = normalize((ubo.model * vec4(normal, 0.0)).xyz);
    diffuse = lambert(worldNormal, normalize(-ubo.lightDir.xyz));
    gl_Position = ubo.mvp * vec4(position, 1.0);
}
