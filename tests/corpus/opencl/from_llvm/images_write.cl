// Images: write_imagef.
__kernel void images_write(__write_only image2d_t img, __global const float4 *in) {
    int x = (int)get_global_id(0);
    int y = (int)get_global_id(1);
    write_imagef(img, (int2)(x, y), in[y * 4 + x]);
}
