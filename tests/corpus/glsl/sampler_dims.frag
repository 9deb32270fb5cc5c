#version 450
// Combined image samplers of every dimensionality and sampled type.
layout(location = 0) in vec4 vCoord;
layout(location = 0) out vec4 outColor;
layout(location = 1) out ivec4 outInt;
layout(location = 2) out uvec4 outUint;

layout(binding = 0) uniform sampler1D s1d;
layout(binding = 1) uniform sampler2D s2d;
layout(binding = 2) uniform sampler3D s3d;
layout(binding = 3) uniform samplerCube scube;
layout(binding = 4) uniform sampler1DArray s1da;
layout(binding = 5) uniform sampler2DArray s2da;
layout(binding = 6) uniform samplerCubeArray scubea;
layout(binding = 7) uniform samplerBuffer sbuf;
layout(binding = 8) uniform sampler2DMS s2dms;
layout(binding = 9) uniform sampler2DMSArray s2dmsa;
layout(binding = 10) uniform isampler2D is2d;
layout(binding = 11) uniform usampler3D us3d;
layout(binding = 12) uniform isamplerCube iscube;
layout(binding = 13) uniform usampler2DArray us2da;
layout(binding = 14) uniform isampler1D is1d;
layout(binding = 15) uniform usamplerBuffer usbuf;

void main() {
    vec4 c = texture(s1d, vCoord.x);
    c += texture(s2d, vCoord.xy);
    c += texture(s3d, vCoord.xyz);
    c += texture(scube, vCoord.xyz);
    c += texture(s1da, vCoord.xy);
    c += texture(s2da, vCoord.xyz);
    c += texture(scubea, vCoord);
    c += texelFetch(sbuf, int(vCoord.w));
    c += texelFetch(s2dms, ivec2(vCoord.xy), 3);
    c += texelFetch(s2dmsa, ivec3(vCoord.xyz), 1);
    outColor = c;
    outInt = texture(is2d, vCoord.xy) + texture(iscube, vCoord.xyz) + texture(is1d, vCoord.x);
    outUint = texture(us3d, vCoord.xyz) + texture(us2da, vCoord.xyz) + texelFetch(usbuf, 7);
}
