// OpenCL 2.0 program-scope global variables, constant tables and static locals.
__constant float gauss[7] = {0.006f, 0.061f, 0.242f, 0.383f, 0.242f, 0.061f, 0.006f};
__constant int4 lut[2] = {(int4)(1, 2, 3, 4), (int4)(-1, -2, -3, -4)};
__global int call_count = 0;
__global float4 accumulator;
global float history[16] = {1.0f};

__kernel void blur1d(__global const float *in, __global float *out, int n) {
    int i = (int)get_global_id(0);
    float s = 0.0f;
    for (int k = -3; k <= 3; ++k) {
        int j = clamp(i + k, 0, n - 1);
        s += in[j] * gauss[k + 3];
    }
    out[i] = s + (float)lut[i & 1].x;
    if (i == 0) {
        call_count++;
        accumulator += (float4)(s);
        history[call_count & 15] = s;
    }
}
