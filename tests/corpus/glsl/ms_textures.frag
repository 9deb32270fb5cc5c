#version 450
// Multisampled texture resolve with sample counts.
#extension GL_ARB_shader_texture_image_samples : require
layout(binding = 0) uniform sampler2DMS colorMS;
layout(binding = 1) uniform isampler2DMSArray idMS;
layout(location = 0) out vec4 outColor;
layout(location = 1) out int outId;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int n = textureSamples(colorMS);
    vec4 sum = vec4(0.0);
    for (int s = 0; s < n; ++s) {
        sum += texelFetch(colorMS, p, s);
    }
    outColor = sum / float(n);
    outId = texelFetch(idMS, ivec3(p, 0), 0).x + textureSamples(idMS) + textureSize(idMS).z;
}
