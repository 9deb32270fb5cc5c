#version 450
// Gaussian blur pass over storage images with several formats.
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, rgba16f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32f) uniform coherent image2D depth;
layout(set = 0, binding = 3, rg16i) uniform restrict iimage2D motion;
layout(set = 0, binding = 4, r8ui) uniform volatile uimage2D mask;
layout(set = 0, binding = 5, rgb10_a2) uniform image2D hdr;

const float weights[5] = float[](0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(src);
    if (p.x >= size.x || p.y >= size.y) return;
    vec4 acc = imageLoad(src, p) * weights[0];
    for (int i = 1; i < 5; ++i) {
        acc += imageLoad(src, clamp(p + ivec2(i, 0), ivec2(0), size - 1)) * weights[i];
        acc += imageLoad(src, clamp(p - ivec2(i, 0), ivec2(0), size - 1)) * weights[i];
    }
    float d = imageLoad(depth, p).r;
    ivec2 mv = imageLoad(motion, p).xy;
    uint m = imageLoad(mask, p).r;
    if (m != 0u) {
        acc.rgb *= 0.5;
    }
    imageStore(dst, p, acc);
    imageStore(depth, p, vec4(d * 0.99));
    imageStore(motion, p, ivec4(mv / 2, 0, 0));
    imageStore(hdr, p, vec4(acc.rgb, 1.0));
}
