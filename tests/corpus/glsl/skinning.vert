#version 450
// Linear blend skinning with a bone-matrix SSBO and dual outputs.
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in uvec4 inJoints;
layout(location = 3) in vec4 inWeights;
layout(location = 4) in vec2 inUV;

layout(set = 0, binding = 0) uniform Frame { mat4 viewProj; } frame;
layout(std430, set = 1, binding = 0) readonly buffer Bones { mat4 bones[]; };
layout(constant_id = 0) const int MAX_INFLUENCES = 4;

layout(location = 0) out vec3 vNormal;
layout(location = 1) out vec2 vUV;
layout(location = 2) flat out uint vDominantJoint;

void main() {
    mat4 skin = mat4(0.0);
    float best = -1.0;
    uint dominant = 0u;
    for (int i = 0; i < MAX_INFLUENCES; ++i) {
        float w = inWeights[i];
        skin += bones[inJoints[i]] * w;
        if (w > best) {
            best = w;
            dominant = inJoints[i];
        }
    }
    vec4 pos = skin * vec4(inPosition, 1.0);
    vNormal = normalize(mat3(skin) * inNormal);
    vUV = inUV;
    vDominantJoint = dominant;
    gl_Position = frame.viewProj * pos;
}
