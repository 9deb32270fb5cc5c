#version 450
// Matrices laid out otherwise than their values (docs/lowering.md): std140 mat2 and mat3x2
// (columns of 8 bytes, 16 apart), arrays of them, RowMajor matrices and arrays of them, a
// struct with such members loaded whole; read from a uniform block, stored whole and through
// column and element access chains into a std140 and a std430 storage buffer.
layout(local_size_x = 2) in;

struct S {
    mat2 m;
    mat3x2 n;
    float k;
};

layout(std140, set = 0, binding = 0) uniform U {
    mat2 a;                     // 0: 2 columns of vec2, 16 apart
    mat3 b;                     // 32
    mat2x3 c;                   // 80
    mat3x2 d;                   // 112
    mat2 e[2];                  // 160
    layout(row_major) mat3 f;   // 224
    layout(row_major) mat2 g[2];// 272
    layout(row_major) mat2x3 h; // 336: 3 rows of vec2, 16 apart
    layout(row_major) S s;      // 384
} u;

layout(std430, set = 0, binding = 1) buffer R { float r[]; };

layout(std140, set = 0, binding = 2) buffer O {
    mat2 a[2];
    mat3x2 b[2];
    layout(row_major) mat3 c[2];
    layout(row_major) mat2x3 d[2];
    layout(row_major) mat2 e[2];
} o;

layout(std430, set = 0, binding = 3) buffer P {
    mat3x2 a[2];
    layout(row_major) mat3 b[2];
    layout(row_major) mat2x3 c[2];
    layout(row_major) mat3x2 d[2];
} p;

void put(inout uint k, vec4 v) {
    r[k] = v.x; r[k + 1] = v.y; r[k + 2] = v.z; r[k + 3] = v.w;
    k += 4;
}

void main() {
    uint i = gl_LocalInvocationID.x;
    float fi = float(i);
    uint k = i * 64;
    put(k, vec4(u.a * vec2(1.0, 2.0), u.a[i]));
    put(k, vec4(u.b * vec3(1.0, -1.0, 0.5), u.b[2][i]));
    put(k, vec4(u.c * vec2(2.0, fi), u.c[i][2]));
    put(k, vec4(u.d * vec3(1.0, 2.0, fi), u.d[2][i], u.d[i + 1u].y));
    put(k, vec4(u.e[i] * vec2(1.0, -2.0), u.e[1 - i][1]));
    put(k, vec4(u.f * vec3(1.0, 2.0, 3.0), u.f[i][2]));
    put(k, vec4(u.f[2], u.f[1][i]));
    put(k, vec4(u.g[i] * vec2(-1.0, 1.0), u.g[i][1]));
    put(k, vec4(u.h * vec2(1.0, fi), u.h[1][i]));
    put(k, vec4(u.h[0], u.g[1 - i][i][1]));
    S s = u.s;
    put(k, vec4(s.m * vec2(1.0, 3.0), s.n[2]));
    put(k, vec4(s.n * vec3(1.0, fi, 2.0), s.k, u.s.n[i][1]));
    mat3 fb = u.f * u.b;
    put(k, vec4(fb[0], fb[1][i]));
    put(k, vec4(transpose(u.h) * vec3(1.0, 2.0, 3.0), determinant(u.g[i]), u.s.m[1][i]));

    // Stores, whole and through columns and elements.
    o.a[i] = u.a * (fi + 1.0);
    o.a[i][1][i] = 42.0 + fi;
    o.b[i] = u.d;
    o.b[i][1] = vec2(fi, 7.0);
    o.b[i][2][0] = 9.5;
    o.c[i] = fb;
    o.c[i][0] = u.f[i];
    o.c[i][2][1] = u.g[i][1][0];
    o.d[i] = u.h + mat2x3(fi);
    o.d[i][1][2] = -1.0;
    o.e[i] = u.g[i] * u.e[i];
    o.e[i][i] = vec2(3.0, 4.0);

    p.a[i] = u.d * fi;
    p.a[i][i + 1u] = vec2(5.0, 6.0);
    p.b[i] = u.f;
    p.b[i][i] = vec3(-1.0, -2.0, -3.0);
    p.b[i][2][i] = 8.0;
    p.c[i] = u.h;
    p.c[i][1][i] = 11.0;
    p.d[i] = transpose(u.c);
    p.d[i][2] = vec2(fi, -fi);
}
