#version 450
// Expand points into camera-facing quads.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) in float vSize[];
layout(location = 1) in vec4 vColor[];
layout(binding = 0) uniform Cam { mat4 proj; vec2 viewport; } cam;
layout(location = 0) out vec2 gUV;
layout(location = 1) out vec4 gColor;

void main() {
    vec4 center = gl_in[0].gl_Position;
    vec2 half_ = vec2(vSize[0]) / cam.viewport * center.w;
    const vec2 corners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));
    for (int i = 0; i < 4; ++i) {
        gl_Position = center + vec4(corners[i] * half_, 0.0, 0.0);
        gl_PointSize = gl_in[0].gl_PointSize;
        gUV = corners[i] * 0.5 + 0.5;
        gColor = vColor[0];
        EmitVertex();
    }
    EndPrimitive();
}
