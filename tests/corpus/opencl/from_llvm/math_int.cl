// OpenCL.std integer functions, signed and unsigned.
__kernel void math_int(__global const int *a, __global const uint *b, __global int *out) {
    size_t g = get_global_id(0);
    int x = a[g];
    uint y = b[g];
    __global int *o = out + 8 * g;
    o[0] = abs(x);
    o[1] = clamp(x, -5, 5);
    o[2] = max(x, 3) + min(x, -3);
    o[3] = (int)max(y, 10u) + (int)min(y, 20u);
    o[4] = mul_hi(x, 123456789) + (int)mul_hi(y, 987654321u);
    o[5] = add_sat(x, 2147483000) + sub_sat(x, -2147483000);
    o[6] = popcount(x) + clz(y) + ctz(y | 0x100u);
    o[7] = rotate(x, 5) + (int)abs_diff(x, 7) + hadd(x, 9);
}
