// cl_khr_fp16: half arithmetic, half vectors and conversions.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void halves(__global half *h, __global half4 *h4, __global float *f) {
    size_t i = get_global_id(0);
    half a = h[i];
    half4 v = h4[i];
    half b = a * (half)0.5h + (half)1.0h;
    v = v * b + (half4)(1.0h, -2.0h, 65504.0h, 6.1e-5h);
    v = fmax(v, (half4)0.0h);
    v = sqrt(v) + mad(v, v, v) + fabs(v);
    half s = dot(v.xyz, v.xyz);
    h[i] = s + a;
    h4[i] = v;
    f[i] = convert_float(s) + vload_half(0, h);
}
