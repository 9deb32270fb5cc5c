// as_type reinterpretations and float/int bit tricks.
__kernel void as_type(__global const float *f, __global uint *u, __global float *back) {
    size_t g = get_global_id(0);
    uint bits = as_uint(f[g]);
    u[g] = bits ^ 0x80000000u;
    back[g] = as_float(bits & 0x7fffffffu);
}
