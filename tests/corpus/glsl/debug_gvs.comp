// args: --target-env vulkan1.1 -gVS
#version 450
// Compiled with -gVS: NonSemantic.Shader.DebugInfo.100 with embedded source.
layout(local_size_x = 64) in;

struct Ray { vec3 origin; float tmin; vec3 dir; float tmax; };
struct Sphere { vec3 center; float radius; };

layout(std430, binding = 0) readonly buffer Rays { Ray rays[]; };
layout(std430, binding = 1) readonly buffer Spheres { Sphere spheres[16]; int count; } scene;
layout(std430, binding = 2) writeonly buffer Hits { float t[]; } hits;

bool intersect(Ray r, Sphere s, out float t) {
    vec3 oc = r.origin - s.center;
    float b = dot(oc, r.dir);
    float c = dot(oc, oc) - s.radius * s.radius;
    float disc = b * b - c;
    if (disc < 0.0) {
        t = r.tmax;
        return false;
    }
    float sq = sqrt(disc);
    t = -b - sq;
    if (t < r.tmin) t = -b + sq;
    return t >= r.tmin && t <= r.tmax;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    Ray r = rays[i];
    float best = r.tmax;
    int bestId = -1;
    for (int s = 0; s < scene.count; ++s) {
        float t;
        if (intersect(r, scene.spheres[s], t) && t < best) {
            best = t;
            bestId = s;
        }
    }
    hits.t[i] = best;
}
