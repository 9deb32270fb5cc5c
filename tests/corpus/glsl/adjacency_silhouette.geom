#version 450
// Silhouette edge extraction from triangles with adjacency.
layout(triangles_adjacency) in;
layout(line_strip, max_vertices = 6) out;
layout(location = 0) in vec3 vWorld[];
layout(binding = 0) uniform Light { vec3 position; mat4 viewProj; } light;

bool facesLight(vec3 a, vec3 b, vec3 c) {
    vec3 n = cross(b - a, c - a);
    return dot(n, light.position - a) > 0.0;
}

void emitEdge(int i0, int i1) {
    gl_Position = light.viewProj * vec4(vWorld[i0], 1.0);
    EmitVertex();
    gl_Position = light.viewProj * vec4(vWorld[i1], 1.0);
    EmitVertex();
    EndPrimitive();
}

void main() {
    if (!facesLight(vWorld[0], vWorld[2], vWorld[4])) {
        return;
    }
    if (!facesLight(vWorld[0], vWorld[1], vWorld[2])) emitEdge(0, 2);
    if (!facesLight(vWorld[2], vWorld[3], vWorld[4])) emitEdge(2, 4);
    if (!facesLight(vWorld[4], vWorld[5], vWorld[0])) emitEdge(4, 0);
}
