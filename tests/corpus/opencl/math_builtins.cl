// Math builtins lowering to OpenCL.std extended instructions.
__kernel void math(__global float4 *v, __global float *s) {
    size_t i = get_global_id(0);
    float4 x = v[i];
    float a = s[i];
    float4 r = sin(x) + cos(x) + tan(x) + asin(clamp(x, -1.0f, 1.0f)) + acos(clamp(x, -1.0f, 1.0f)) + atan(x);
    r += sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(fabs(x) + 1.0f) + atanh(clamp(x, -0.5f, 0.5f));
    r += sinpi(x) + cospi(x) + tanpi(x) + atan2(x, x + 1.0f) + atan2pi(x, 2.0f);
    r += exp(x) + exp2(x) + exp10(x) + expm1(x) + log(fabs(x) + 1.0f) + log2(fabs(x) + 1.0f) + log10(fabs(x) + 1.0f) + log1p(fabs(x));
    r += pow(fabs(x), 2.5f) + pown(x, 3) + powr(fabs(x), x) + rootn(fabs(x), 3) + sqrt(fabs(x)) + rsqrt(fabs(x) + 1.0f) + cbrt(x);
    r += fma(x, x, x) + mad(x, 2.0f, 1.0f) + hypot(x, x) + fmin(x, a) + fmax(x, a) + fdim(x, a) + fmod(x, 3.0f) + remainder(x, 2.0f);
    r += ceil(x) + floor(x) + trunc(x) + round(x) + rint(x) + fabs(x) + copysign(x, -x) + nextafter(x, 0.0f);
    r += erf(x) + erfc(x) + lgamma(fabs(x) + 1.0f) + tgamma(fabs(x) + 1.0f) + logb(x) + mix(x, r, 0.5f);
    r += native_sin(x) + native_cos(x) + native_exp(x) + native_log(fabs(x) + 1.0f) + native_sqrt(fabs(x)) + native_recip(x + 3.0f) + native_divide(x, 7.0f);
    r += half_sin(x) + half_exp(x) + half_rsqrt(fabs(x) + 1.0f) + half_powr(fabs(x), 2.0f);
    r += degrees(x) + radians(x) + sign(x) + step(0.5f, x) + smoothstep(0.0f, 1.0f, x) + clamp(x, 0.0f, 1.0f);
    float4 ip;
    r += fract(x, &ip) + ip;
    int4 ex;
    r += frexp(x, &ex) + convert_float4(ex) + ldexp(x, ex) + convert_float4(ilogb(x));
    float4 c;
    r += sincos(x, &c) + c + modf(x, &ip) + nan((uint4)7);
    int q;
    r.x += remquo(a, 3.0f, &q) + (float)q + maxmag(a, -a) + minmag(a, 2.0f);
    v[i] = r;
}
