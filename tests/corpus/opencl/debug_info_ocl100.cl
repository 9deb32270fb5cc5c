// valid: no
// (llvm-spirv 15 emits a forward reference inside DebugTypeMember and DebugInfoNone as DebugSource
// Text; spirv-val 2023.1 rejects both)
// args: -debug-info-kind=limited -dwarf-version=4
// llvm-spirv: --spirv-max-version=1.1 --spirv-debug-info-version=ocl-100
// target-env: spv1.1
// Debug info lowered to the OpenCL.DebugInfo.100 extended instruction set.
typedef struct { float3 center; float radius; } sphere_t;

float hit_sphere(sphere_t s, float3 origin, float3 dir) {
    float3 oc = origin - s.center;
    float b = dot(oc, dir);
    float c = dot(oc, oc) - s.radius * s.radius;
    float h = b * b - c;
    if (h < 0.0f) return -1.0f;
    return -b - sqrt(h);
}

__kernel void trace(__global const sphere_t *spheres, int count, __global float *depth, int width) {
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    float3 dir = normalize((float3)((float)x / width - 0.5f, (float)y / width - 0.5f, 1.0f));
    float best = INFINITY;
    for (int i = 0; i < count; ++i) {
        float t = hit_sphere(spheres[i], (float3)(0.0f), dir);
        if (t > 0.0f && t < best) best = t;
    }
    depth[y * width + x] = best;
}
