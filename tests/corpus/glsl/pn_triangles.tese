#version 450
// PN-triangle evaluation: triangles, equal spacing, counter-clockwise.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) in vec3 tcNormal[];
layout(location = 1) patch in vec3 tcB210;
layout(location = 2) patch in vec3 tcB120;
layout(location = 3) patch in vec3 tcB111;
layout(binding = 0) uniform MVP { mat4 mvp; } u;
layout(location = 0) out vec3 teNormal;

void main() {
    vec3 b = gl_TessCoord;
    vec3 p0 = gl_in[0].gl_Position.xyz, p1 = gl_in[1].gl_Position.xyz, p2 = gl_in[2].gl_Position.xyz;
    vec3 pos = p0 * b.x * b.x * b.x + p1 * b.y * b.y * b.y + p2 * b.z * b.z * b.z
             + tcB210 * 3.0 * b.x * b.x * b.y + tcB120 * 3.0 * b.x * b.y * b.y
             + tcB111 * 6.0 * b.x * b.y * b.z;
    teNormal = normalize(tcNormal[0] * b.x + tcNormal[1] * b.y + tcNormal[2] * b.z);
    gl_Position = u.mvp * vec4(pos, 1.0);
}
