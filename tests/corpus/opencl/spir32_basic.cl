// triple: spir-unknown-unknown
// 32-bit SPIR target (Physical32 addressing): size_t is 32-bit.
__kernel void saxpy32(__global float *y, __global const float *x, float a, uint n) {
    size_t i = get_global_id(0);
    if (i < n) y[i] = mad(a, x[i], y[i]);
    __global float *p = y + get_global_size(0);
    if (i == 0) *p = (float)sizeof(size_t) + (float)sizeof(void *);
}
