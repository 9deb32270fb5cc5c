#version 450
// Structs and arrays: std430 structs with vec3 + float packing, nested arrays, a local array
// indexed dynamically, struct copies and a returned struct.
layout(local_size_x = 4) in;
struct Particle { vec3 pos; float mass; ivec2 cell; uint tags[3]; };
layout(std430, binding = 0) readonly buffer In { Particle ps[]; };
layout(std430, binding = 1) buffer Out { Particle qs[]; };
struct Pair { int lo; int hi; };
Pair order(int a, int b) { Pair p; p.lo = min(a, b); p.hi = max(a, b); return p; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    Particle p = ps[i];
    int table[8];
    for (int k = 0; k < 8; k++) table[k] = k * k - int(i);
    Pair pr = order(p.cell.x, p.cell.y);
    p.pos = p.pos * 2.0 + vec3(float(i));
    p.mass = p.mass + float(table[(i + p.tags[0]) % 8u]);
    p.cell = ivec2(pr.lo, pr.hi);
    p.tags[2] = p.tags[0] + p.tags[1] * 10u + uint(table[p.tags[1] % 8u]);
    qs[i] = p;
}
