// 64-bit integers: arithmetic, shifts, division and comparisons.
__kernel void int64(__global const long *a, __global const ulong *b, __global long *out) {
    size_t g = get_global_id(0);
    long x = a[g];
    ulong y = b[g] | 1;
    out[3 * g] = x * 3 - (long)(y >> 3);
    out[3 * g + 1] = x / 7 + (long)(y % 11);
    out[3 * g + 2] = (x < 0) ? (x << 2) : (x >> 1);
}
