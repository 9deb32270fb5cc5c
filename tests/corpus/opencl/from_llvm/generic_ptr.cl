// The generic address space: one function called with global and local pointers.
float sum3(const float *p) { return p[0] + p[1] + p[2]; }

__kernel void generic_ptr(__global const float *in, __global float *out) {
    __local float loc[12];
    size_t l = get_local_id(0);
    size_t g = get_global_id(0);
    loc[l] = in[g] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float a = sum3(in + (g / 4) * 4);
    float b = sum3(loc + (l / 4) * 4);
    out[g] = a + b;
}
