// args: -O2 -cl-fast-relaxed-math
// valid: no
// llvm-spirv 15 emits the -O2 blocks in LLVM layout order, which spirv-val rejects
// ("ID has not been defined" / block before its dominator). Kept as a real-world invalid module.
__kernel void layer_norm(__global const float *in, __global float *out, int n, float eps) {
    int row = (int)get_global_id(0);
    __global const float *x = in + row * n;
    float mean = 0.0f;
    for (int i = 0; i < n; ++i) mean += x[i];
    mean /= n;
    float var = 0.0f;
    for (int i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
    float inv = rsqrt(var / n + eps);
    for (int i = 0; i < n; ++i) out[row * n + i] = (x[i] - mean) * inv;
}
