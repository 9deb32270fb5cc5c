#version 450
// 64-bit vertex attributes and outputs, converted to float for rasterization.
layout(location = 0) in dvec3 inPosition;
layout(location = 2) in double inTime;
layout(location = 3) in dvec2 inOrigin;
layout(binding = 0) uniform Precise { dmat4 modelView; mat4 proj; } u;
layout(location = 0) flat out double vTime;
layout(location = 2) out vec3 vRelative;

void main() {
    dvec4 view = u.modelView * dvec4(inPosition - dvec3(inOrigin, 0.0lf), 1.0lf);
    vTime = inTime;
    vRelative = vec3(view.xyz);
    gl_Position = u.proj * vec4(view);
}
