// Structs by value and by pointer, nested structs, packed/aligned attributes, unions.
typedef struct { float x, y, z; } vec3f;
typedef struct { vec3f pos; vec3f vel; float mass; int id; } body;
typedef struct __attribute__((packed)) { char tag; int value; short extra; } packed_rec;
typedef struct __attribute__((aligned(32))) { float4 a; int b; } aligned_rec;
typedef union { float f; uint u; uchar bytes[4]; } punning;

vec3f add(vec3f a, vec3f b) { vec3f r = {a.x + b.x, a.y + b.y, a.z + b.z}; return r; }
vec3f scale(vec3f a, float s) { vec3f r = {a.x * s, a.y * s, a.z * s}; return r; }

__kernel void step(__global body *bodies, body gravity_source, float dt,
                   __global packed_rec *recs, __global aligned_rec *al, __global uint *bits) {
    size_t i = get_global_id(0);
    body b = bodies[i];
    vec3f d = add(gravity_source.pos, scale(b.pos, -1.0f));
    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 1e-3f;
    b.vel = add(b.vel, scale(d, gravity_source.mass * dt / (r2 * sqrt(r2))));
    b.pos = add(b.pos, scale(b.vel, dt));
    bodies[i] = b;
    recs[i].value += recs[i].tag + recs[i].extra;
    al[i].a *= (float)al[i].b;
    punning p;
    p.f = b.mass;
    bits[i] = p.u ^ p.bytes[3];
}
