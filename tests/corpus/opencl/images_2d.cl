// 2D image read/write with samplers passed as arguments and image queries.
__kernel void sobel(read_only image2d_t src, write_only image2d_t dst, sampler_t smp) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int w = get_image_width(src);
    int h = get_image_height(src);
    if (p.x >= w || p.y >= h) return;
    float4 gx = (float4)0.0f, gy = (float4)0.0f;
    const int kx[9] = {-1, 0, 1, -2, 0, 2, -1, 0, 1};
    const int ky[9] = {-1, -2, -1, 0, 0, 0, 1, 2, 1};
    for (int j = -1; j <= 1; ++j) {
        for (int i = -1; i <= 1; ++i) {
            float4 c = read_imagef(src, smp, p + (int2)(i, j));
            gx += c * (float)kx[(j + 1) * 3 + i + 1];
            gy += c * (float)ky[(j + 1) * 3 + i + 1];
        }
    }
    float4 mag = sqrt(gx * gx + gy * gy);
    int2 dim = get_image_dim(dst);
    write_imagef(dst, min(p, dim - 1), mag);
}
