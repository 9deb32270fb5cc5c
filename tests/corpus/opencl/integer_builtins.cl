// Integer builtins: clz, ctz, popcount, rotate, mul_hi, mad_hi, mad24, mul24, add_sat, sub_sat, hadd, rhadd, upsample, abs_diff.
__kernel void ints(__global int4 *a, __global uint4 *b, __global long *l, __global short *s, __global char *c) {
    size_t i = get_global_id(0);
    int4 x = a[i];
    uint4 y = b[i];
    int4 r = clz(x) + ctz(x) + popcount(x) + rotate(x, (int4)(1, 2, 3, 4));
    r += mul_hi(x, x) + mad_hi(x, x, x) + mad24(x, x, x) + mul24(x, x) + mad_sat(x, x, x);
    r += add_sat(x, x) + sub_sat(x, (int4)(INT_MIN)) + hadd(x, x) + rhadd(x, x) + min(x, 3) + max(x, -3);
    uint4 u = abs(x) + abs_diff(x, (int4)(7)) + y / (y | 1u) + y % (y | 1u) + (y >> 3) + (y << 2);
    long up = upsample(x.x, y.y);
    short us = upsample((char)x.z, (uchar)y.w);
    a[i] = r + clamp(x, -100, 100);
    b[i] = u;
    l[i] = up + l[i] * 0x7fffffffffffffffL + (long)0x8000000000000000UL;
    s[i] = us + (short)-32768;
    c[i] = (char)-128 + c[i];
}
