// valid: no
// (scalar layout: passes only with spirv-val --scalar-block-layout)
#version 450
// GL_EXT_scalar_block_layout and explicit offsets/alignment.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;

struct Vertex {
    vec3 position;
    vec3 normal;
    vec2 uv;
};

layout(scalar, binding = 0) buffer Vertices { Vertex verts[]; };
layout(std430, binding = 1) buffer Explicit {
    layout(offset = 0) float a;
    layout(offset = 16) vec3 b;
    layout(offset = 32) mat2x3 c;
    layout(offset = 80, align = 16) vec2 d;
} e;
layout(std140, binding = 2, row_major) uniform RowMajor {
    mat3x4 rm;
    layout(column_major) mat4 cm;
} rmu;

void main() {
    uint i = gl_GlobalInvocationID.x;
    Vertex v = verts[i];
    v.normal = normalize(vec4(v.normal, 0.0) * rmu.rm);
    v.position = (rmu.cm * vec4(v.position, 1.0)).xyz + e.b + e.c * e.d;
    v.uv *= e.a;
    verts[i] = v;
}
