#version 450
// Standard MVP transform with UBO, push constants and varyings.
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUV;
layout(location = 3) in vec4 inColor;

layout(set = 0, binding = 0) uniform Camera {
    mat4 view;
    mat4 proj;
    vec3 eye;
} camera;

layout(push_constant) uniform Model {
    mat4 model;
    mat4 normalMatrix;
} pc;

layout(location = 0) out vec3 outWorldPos;
layout(location = 1) out vec3 outNormal;
layout(location = 2) out vec2 outUV;
layout(location = 3) out vec4 outColor;

out gl_PerVertex {
    vec4 gl_Position;
};

void main() {
    vec4 world = pc.model * vec4(inPosition, 1.0);
    outWorldPos = world.xyz;
    outNormal = normalize(mat3(pc.normalMatrix) * inNormal);
    outUV = inUV;
    outColor = inColor;
    gl_Position = camera.proj * camera.view * world;
}
