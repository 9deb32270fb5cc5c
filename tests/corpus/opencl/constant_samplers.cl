// Program-scope and literal constant samplers (OpConstantSampler with every addressing/filter mode).
__constant sampler_t s_none = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
__constant sampler_t s_clamp_edge = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__constant sampler_t s_clamp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t s_repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__constant sampler_t s_mirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;

__kernel void sample_all(read_only image2d_t img, __global float4 *out) {
    int i = (int)get_global_id(0);
    float2 uv = (float2)((float)i / 64.0f, 0.5f);
    float4 acc = read_imagef(img, s_none, (int2)(i, 0));
    acc += read_imagef(img, s_clamp_edge, uv);
    acc += read_imagef(img, s_clamp, uv * 2.0f);
    acc += read_imagef(img, s_repeat, uv * 3.0f);
    acc += read_imagef(img, s_mirror, uv - 1.0f);
    acc += read_imagef(img, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST, (float2)(i, 0));
    out[i] = acc;
}
