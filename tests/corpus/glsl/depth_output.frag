#version 450
// Early fragment tests are incompatible with depth writes, so this uses conservative depth.
layout(depth_greater) out float gl_FragDepth;
layout(location = 0) in vec3 vViewPos;
layout(location = 0) out vec4 outColor;
layout(binding = 0) uniform Proj { mat4 proj; float near; float far; } u;

void main() {
    vec4 clip = u.proj * vec4(vViewPos, 1.0);
    float ndc = clip.z / clip.w;
    gl_FragDepth = max(ndc * 0.5 + 0.5, gl_FragCoord.z);
    float lin = (2.0 * u.near) / (u.far + u.near - ndc * (u.far - u.near));
    outColor = vec4(vec3(lin), 1.0);
}
