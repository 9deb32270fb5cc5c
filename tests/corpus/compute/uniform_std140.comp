#version 450
// A uniform buffer in std140 layout (a float array with a 16-byte stride, a vec3 followed by a
// float, a mat4) next to a storage buffer in another set. (Padded std140 mat2 columns and
// RowMajor matrices: matrix_layouts.comp.)
layout(local_size_x = 4) in;
layout(std140, set = 1, binding = 0) uniform U {
    float coeffs[4];
    vec3 dir;
    float offset;
    mat4 rot;
    ivec2 counts;
} u;
layout(std430, set = 0, binding = 0) buffer Out { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float c = u.coeffs[i];
    vec2 p = (u.rot * vec4(float(i), 1.0, 0.0, 0.0)).xy;
    r[i] = vec4(c * u.dir.x + u.offset, p, float(u.counts.x * int(i) + u.counts.y) + u.dir.z);
}
