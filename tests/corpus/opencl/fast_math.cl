// args: -cl-fast-relaxed-math -cl-mad-enable
// Fast relaxed math (FPFastMathMode Fast decorations on float ops).
__kernel void softmax_row(__global const float *in, __global float *out, int n) {
    int row = (int)get_global_id(0);
    __global const float *x = in + row * n;
    float m = -INFINITY;
    for (int i = 0; i < n; ++i) m = fmax(m, x[i]);
    float s = 0.0f;
    for (int i = 0; i < n; ++i) s += exp(x[i] - m);
    float inv = 1.0f / s;
    for (int i = 0; i < n; ++i) out[row * n + i] = exp(x[i] - m) * inv;
}
