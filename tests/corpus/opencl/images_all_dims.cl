// Image types of every dimension, integer/float reads, channel queries and read_write images.
__kernel void images(read_only image1d_t i1, read_only image1d_buffer_t i1b, read_only image1d_array_t i1a,
                     read_only image2d_array_t i2a, read_only image3d_t i3, read_only image2d_depth_t idepth,
                     read_only image2d_array_depth_t idepth_arr, write_only image3d_t o3,
                     read_write image2d_t rw, __global int4 *info, sampler_t smp) {
    int gid = (int)get_global_id(0);
    float4 a = read_imagef(i1, smp, gid);
    float4 b = read_imagef(i1b, gid);
    float4 c = read_imagef(i1a, smp, (int2)(gid, 1));
    float4 d = read_imagef(i2a, smp, (float4)(0.5f, 0.5f, 1.0f, 0.0f));
    float4 e = read_imagef(i3, smp, (int4)(gid, 0, 0, 0));
    float f = read_imagef(idepth, smp, (int2)(gid, 0));
    float g = read_imagef(idepth_arr, smp, (int4)(gid, 0, 2, 0));
    write_imagef(o3, (int4)(gid, 1, 2, 0), a + b + c + d + e + f + g);
    float4 old = read_imagef(rw, (int2)(gid, 0));
    write_imagef(rw, (int2)(gid, 0), old * 0.5f);
    info[gid] = (int4)(get_image_channel_order(i3), get_image_channel_data_type(i3),
                       get_image_array_size(i2a), get_image_depth(i3))
              + (int4)(get_image_width(i1b), get_image_array_size(i1a), get_image_width(idepth), (int)get_image_array_size(idepth_arr));
}

__kernel void int_images(read_only image2d_t src, write_only image2d_t dst, sampler_t smp) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int4 i = read_imagei(src, smp, p);
    uint4 u = read_imageui(src, smp, p);
    write_imagei(dst, p, i + 1);
    write_imageui(dst, p + (int2)(1, 0), u * 2u);
}
