#version 450
// Transform feedback: xfb_buffer / xfb_offset / xfb_stride decorations.
layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec4 inVelocity;
layout(binding = 0) uniform Step { float dt; vec3 gravity; } step;

layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 32) out vec4 outPosition;
layout(location = 1, xfb_buffer = 0, xfb_offset = 16) out vec4 outVelocity;
layout(location = 2, xfb_buffer = 1, xfb_offset = 0) out float outSpeed;

layout(xfb_buffer = 2) out gl_PerVertex {
    layout(xfb_offset = 0) vec4 gl_Position;
};

void main() {
    vec4 v = inVelocity + vec4(step.gravity * step.dt, 0.0);
    outPosition = inPosition + v * step.dt;
    outVelocity = v;
    outSpeed = length(v.xyz);
    gl_Position = outPosition;
}
