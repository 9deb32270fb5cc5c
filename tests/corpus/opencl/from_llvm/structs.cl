// Structs in global memory: member loads and stores.
typedef struct { float x; int n; float4 v; } item_t;
__kernel void structs(__global item_t *items, __global float *out) {
    size_t g = get_global_id(0);
    item_t it = items[g];
    out[g] = it.x * (float)it.n + it.v.y;
    items[g].n = it.n + 1;
}
