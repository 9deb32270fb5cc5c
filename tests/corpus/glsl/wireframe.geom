#version 450
// Emit triangle edges as line strips, skipping degenerate triangles.
layout(triangles) in;
layout(line_strip, max_vertices = 4) out;
layout(location = 0) in vec4 vColor[];
layout(location = 0) out vec4 gColor;

void main() {
    vec3 a = gl_in[0].gl_Position.xyz / gl_in[0].gl_Position.w;
    vec3 b = gl_in[1].gl_Position.xyz / gl_in[1].gl_Position.w;
    vec3 c = gl_in[2].gl_Position.xyz / gl_in[2].gl_Position.w;
    if (length(cross(b - a, c - a)) < 1e-6) {
        return;
    }
    for (int i = 0; i < 4; ++i) {
        int k = i % 3;
        gl_Position = gl_in[k].gl_Position;
        gColor = vColor[k];
        gl_PrimitiveID = gl_PrimitiveIDIn;
        EmitVertex();
    }
    EndPrimitive();
}
