// OpenCL.std math: trigonometry, exponentials, roots, rounding and fused ops.
__kernel void math_basic(__global const float *x, __global float *out) {
    size_t g = get_global_id(0);
    float v = x[g];
    __global float *o = out + 8 * g;
    o[0] = sin(v) + cos(v);
    o[1] = exp(v * 0.1f) + log(fabs(v) + 1.0f);
    o[2] = sqrt(fabs(v)) + rsqrt(fabs(v) + 1.0f);
    o[3] = pow(fabs(v), 1.5f);
    o[4] = floor(v) + ceil(v) + round(v) + trunc(v);
    o[5] = fma(v, 2.0f, 1.0f) + mad(v, v, 0.5f);
    o[6] = fmin(v, 1.0f) + fmax(v, -1.0f) + max(v, 0.0f) + clamp(v, -2.0f, 2.0f);
    o[7] = atan2(v, 2.0f) + hypot(v, 3.0f) + copysign(1.0f, v);
}
