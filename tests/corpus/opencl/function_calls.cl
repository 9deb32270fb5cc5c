// Helper functions with noinline/always_inline, pointer out-params, static helpers and recursion-free call chains.
__attribute__((noinline)) float lerp1(float a, float b, float t) { return a + (b - a) * t; }
__attribute__((always_inline)) inline float sq(float x) { return x * x; }
static float bilerp(float a, float b, float c, float d, float u, float v) {
    return lerp1(lerp1(a, b, u), lerp1(c, d, u), v);
}
__attribute__((noinline)) void minmax(__global const float *p, int n, float *mn, float *mx) {
    *mn = INFINITY;
    *mx = -INFINITY;
    for (int i = 0; i < n; ++i) { *mn = fmin(*mn, p[i]); *mx = fmax(*mx, p[i]); }
}
__attribute__((noinline)) int4 pack(float4 v) { return convert_int4_sat_rte(v * 127.0f); }

__kernel void calls(__global const float *grid, __global float *out, __global int4 *packed, int w) {
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    float a = grid[y * w + x], b = grid[y * w + x + 1], c = grid[(y + 1) * w + x], d = grid[(y + 1) * w + x + 1];
    float mn, mx;
    minmax(grid + y * w, w, &mn, &mx);
    float v = bilerp(a, b, c, d, 0.5f, 0.5f);
    out[y * w + x] = sq(v - mn) / fmax(mx - mn, 1e-6f);
    packed[y * w + x] = pack((float4)(a, b, c, d));
}
