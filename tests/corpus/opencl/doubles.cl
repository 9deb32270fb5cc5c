// Double-precision (cl_khr_fp64) math, conversions and vector doubles.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
double horner(double x, __constant double *c, int n) {
    double r = c[n - 1];
    for (int k = n - 2; k >= 0; --k) r = fma(r, x, c[k]);
    return r;
}

__constant double coeffs[5] = {1.0, -0.5, 0.041666666666666664, -0.001388888888888889, 2.48015873015873e-05};

__kernel void doubles(__global double *x, __global double4 *v, __global float *f, __global long *l) {
    size_t i = get_global_id(0);
    double d = x[i];
    double4 q = v[i];
    d = horner(d, coeffs, 5) + sqrt(fabs(d)) + exp(-d * d) + log1p(fabs(d)) + pow(fabs(d), 0.3333333333333333);
    q = q * d + (double4)(DBL_MIN, DBL_EPSILON, -0.0, 1.0e300);
    q = clamp(q, -DBL_MAX, DBL_MAX);
    f[i] = convert_float_rtn(d) + (float)q.x;
    l[i] = convert_long_sat_rtz(d * 1e18) + as_long(d);
    x[i] = d + dot(q, q) + length(q.xyz) + distance(q.xy, q.zw);
    v[i] = normalize(q);
}
