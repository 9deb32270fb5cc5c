// Half-precision image reads/writes (read_imageh/write_imageh) with cl_khr_fp16.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__kernel void gamma_h(read_only image2d_t src, write_only image2d_t dst, half g) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    half4 c = read_imageh(src, nearest, p);
    c.xyz = pow(c.xyz, (half3)g);
    write_imageh(dst, p, c);
}
