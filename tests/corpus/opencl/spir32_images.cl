// triple: spir-unknown-unknown
// args: -O2
// 32-bit SPIR target with images and a sampler at -O2.
__constant sampler_t smp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__kernel void resize(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int2 dim = get_image_dim(dst);
    float2 uv = (convert_float2(p) + 0.5f) / convert_float2(dim);
    write_imagef(dst, p, read_imagef(src, smp, uv));
}
