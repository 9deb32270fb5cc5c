#version 450
// Matrices: mat4 * vec4, vec * mat, mat * mat, transpose, outerProduct, scalar * matrix, dot,
// and determinants of small integer-valued matrices (exact in any order of evaluation).
layout(local_size_x = 2) in;
layout(std430, binding = 0) readonly buffer In { mat4 ms[]; };
layout(std430, binding = 1) buffer Out { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mat4 m = ms[i];
    vec4 v = vec4(1.0, 2.0, 3.0, float(i));
    uint o = i * 12u;
    r[o + 0u] = m * v;
    r[o + 1u] = v * m;
    mat4 mm = m * transpose(m);
    r[o + 2u] = mm[0];
    r[o + 3u] = mm[3];
    mat3 op = outerProduct(v.xyz, v.zyx);
    r[o + 4u] = vec4(op[0], op[2].y);
    r[o + 5u] = (2.0 * m)[1];
    r[o + 6u] = vec4(dot(m[0], m[1]), dot(v, v), length(vec2(3.0, 4.0)), distance(v.xy, v.yx));
    mat2 m2 = mat2(m[0].xy, m[1].xy);
    mat3 m3 = mat3(m[0].xyz, m[1].xyz, m[2].xyz);
    r[o + 7u] = vec4(determinant(m2), determinant(m3), 0.0, 0.0);
    r[o + 8u] = transpose(m)[2];
    r[o + 9u] = vec4(m3 * v.xyz, 1.0);
    r[o + 10u] = vec4(cross(m[0].xyz, m[1].xyz), 0.0);
    r[o + 11u] = m[2] * m[3];
}
