#version 450
// Storage images of every dimension, formats, formatless load/store, size/sample queries.
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0, rgba32f) uniform image1D i1d;
layout(binding = 1, rgba16) uniform image1DArray i1da;
layout(binding = 2, rg32f) uniform image2DArray i2da;
layout(binding = 3, r11f_g11f_b10f) uniform image3D i3d;
layout(binding = 4, rgba8_snorm) uniform imageCube icube;
layout(binding = 5, rgba16_snorm) uniform imageCubeArray icubea;
layout(binding = 6, rgba8) uniform image2DMS i2dms;
layout(binding = 7, rg8) uniform image2DMSArray i2dmsa;
layout(binding = 8) uniform image2D formatless;
layout(binding = 9, rgba32ui) uniform uimage2D irect;
layout(binding = 10, r16ui) uniform uimage3D u3d;
layout(binding = 11, rg16i) uniform iimage1D ii1d;
layout(binding = 12, rgba16i) uniform iimage3D ii3d;
layout(binding = 13, r8i) uniform iimage2D ii2d;
layout(binding = 14, rgb10_a2ui) uniform uimage2D urgb10;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 acc = imageLoad(i1d, p.x) + imageLoad(i1da, p) + imageLoad(i2da, ivec3(p, 1));
    acc += imageLoad(i3d, ivec3(p, 2)) + imageLoad(icube, ivec3(p, 3)) + imageLoad(icubea, ivec3(p, 7));
    acc += imageLoad(i2dms, p, 2) + imageLoad(i2dmsa, ivec3(p, 0), 1) + imageLoad(formatless, p);
    uvec4 u = imageLoad(irect, p) + imageLoad(u3d, ivec3(p, 0)) + imageLoad(urgb10, p);
    ivec4 s = imageLoad(ii1d, p.x) + imageLoad(ii3d, ivec3(p, 1)) + imageLoad(ii2d, p);
    ivec3 sz = imageSize(i3d) + ivec3(imageSize(i1d), imageSize(icube)) + imageSize(icubea)
             + ivec3(imageSize(i2dms), imageSamples(i2dms)) + imageSize(i2dmsa) + ivec3(imageSamples(i2dmsa));
    imageStore(formatless, p, acc + vec4(u) + vec4(s) + vec4(sz, 0));
    imageStore(i1d, p.x, acc);
}
