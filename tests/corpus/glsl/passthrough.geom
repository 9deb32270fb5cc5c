#version 450
// Triangle passthrough that also computes a flat face normal.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec3 vWorld[];
layout(location = 1) in vec2 vUV[];
layout(location = 0) out vec3 gWorld;
layout(location = 1) out vec2 gUV;
layout(location = 2) flat out vec3 gFaceNormal;

void main() {
    vec3 n = normalize(cross(vWorld[1] - vWorld[0], vWorld[2] - vWorld[0]));
    for (int i = 0; i < 3; ++i) {
        gl_Position = gl_in[i].gl_Position;
        gWorld = vWorld[i];
        gUV = vUV[i];
        gFaceNormal = n;
        EmitVertex();
    }
    EndPrimitive();
}
