#version 450
// Non-square matrices, matrix builtins, row/column-major UBO members.
layout(location = 0) in vec4 inPosition;
layout(location = 1) in mat3 inBasis;
layout(binding = 0, std140) uniform Mats {
    mat2x3 m23;
    mat3x2 m32;
    layout(row_major) mat4x3 m43;
    mat3x4 m34;
    mat2 m2;
    mat4 m4;
} mats;

layout(location = 0) out vec3 vA;
layout(location = 1) out vec2 vB;
layout(location = 2) out vec4 vC;
layout(location = 3) out float vDet;

void main() {
    vec3 a = mats.m23 * vec2(inPosition.xy);
    vec2 b = mats.m32 * a;
    vec3 c = mats.m43 * inPosition;
    vec4 d = mats.m34 * c;
    mat2 inv2 = inverse(mats.m2);
    mat3 t = transpose(inBasis);
    mat4 inv4 = inverse(mats.m4);
    mat3x4 op = outerProduct(d, a);
    mat4 cm = matrixCompMult(mats.m4, inv4);
    vA = t * a + inBasis[1];
    vB = inv2 * b + b * inv2;
    vC = op * a + cm[2] + vec4(d * mats.m34, 0.0) * 0.0;
    vDet = determinant(inv2) + determinant(t) + determinant(cm);
    gl_Position = mats.m4 * inPosition;
}
