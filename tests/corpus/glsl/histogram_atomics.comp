#version 450
// 256-bin histogram: shared-memory atomics, then global atomics.
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0, rgba8) uniform readonly image2D srcImage;
layout(std430, binding = 1) buffer Histogram { uint bins[256]; uint total; } hist;

shared uint localBins[256];

uint luminance(vec4 c) {
    float l = dot(c.rgb, vec3(0.2126, 0.7152, 0.0722));
    return uint(clamp(l, 0.0, 1.0) * 255.0);
}

void main() {
    uint idx = gl_LocalInvocationIndex;
    localBins[idx] = 0u;
    barrier();

    ivec2 size = imageSize(srcImage);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (all(lessThan(p, size))) {
        uint bin = luminance(imageLoad(srcImage, p));
        atomicAdd(localBins[bin], 1u);
    }
    barrier();

    uint count = localBins[idx];
    if (count > 0u) {
        atomicAdd(hist.bins[idx], count);
        atomicAdd(hist.total, count);
    }
    atomicMax(hist.bins[255], atomicMin(localBins[0], 1000000u));
    uint prev = atomicExchange(localBins[idx], 0u);
    atomicCompSwap(hist.bins[0], prev, prev + 1u);
    atomicOr(hist.total, 0u);
    atomicAnd(hist.total, 0xFFFFFFFFu);
    atomicXor(hist.total, 0u);
}
