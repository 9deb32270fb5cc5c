// Tiled 8x8 matrix multiply through __local tiles.
#define T 4
__kernel __attribute__((reqd_work_group_size(T, T, 1)))
void matmul_local(__global const float *A, __global const float *B, __global float *C, int n) {
    __local float a[T][T];
    __local float b[T][T];
    int r = get_global_id(1), c = get_global_id(0);
    int lr = get_local_id(1), lc = get_local_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n / T; t++) {
        a[lr][lc] = A[r * n + t * T + lc];
        b[lr][lc] = B[(t * T + lr) * n + c];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < T; k++) acc += a[lr][k] * b[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[r * n + c] = acc;
}
