#version 450
// Multiview rendering: per-view matrices indexed with gl_ViewIndex.
#extension GL_EXT_multiview : require
layout(location = 0) in vec4 inPosition;
layout(binding = 0) uniform Views { mat4 viewProj[2]; } views;
layout(location = 0) out float vViewTint;

void main() {
    gl_Position = views.viewProj[gl_ViewIndex] * inPosition;
    vViewTint = float(gl_ViewIndex);
}
