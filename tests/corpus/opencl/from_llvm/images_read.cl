// Images and samplers: read_imagef with a constant sampler.
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__kernel void images_read(__read_only image2d_t img, __global float4 *out) {
    int x = (int)get_global_id(0);
    int y = (int)get_global_id(1);
    out[y * get_image_width(img) + x] = read_imagef(img, smp, (int2)(x, y));
}
