#version 450
// Separate textures and samplers combined at use sites; arrays of textures.
layout(set = 0, binding = 0) uniform texture2D colorTex;
layout(set = 0, binding = 1) uniform texture2D normalTex;
layout(set = 0, binding = 2) uniform texture3D lut;
layout(set = 0, binding = 3) uniform textureCube env;
layout(set = 0, binding = 4) uniform texture2DArray layers;
layout(set = 0, binding = 5) uniform texture2D textures[4];
layout(set = 1, binding = 0) uniform sampler linearSampler;
layout(set = 1, binding = 1) uniform sampler nearestSampler;
layout(set = 1, binding = 2) uniform samplerShadow shadowSampler;
layout(set = 1, binding = 3) uniform texture2D depthTex;
layout(set = 1, binding = 4) uniform itexture2D idTex;
layout(set = 1, binding = 5) uniform textureBuffer texBuf;

layout(location = 0) in vec2 vUV;
layout(location = 1) in vec3 vNormal;
layout(location = 2) flat in int vIndex;
layout(location = 0) out vec4 outColor;

void main() {
    vec4 c = texture(sampler2D(colorTex, linearSampler), vUV);
    vec3 n = texture(sampler2D(normalTex, nearestSampler), vUV).xyz * 2.0 - 1.0;
    vec3 graded = texture(sampler3D(lut, linearSampler), c.rgb).rgb;
    vec3 refl = texture(samplerCube(env, linearSampler), reflect(-vNormal, n)).rgb;
    vec4 layer = texture(sampler2DArray(layers, linearSampler), vec3(vUV, 2.0));
    vec4 indexed = texture(sampler2D(textures[vIndex & 3], linearSampler), vUV);
    float shadow = texture(sampler2DShadow(depthTex, shadowSampler), vec3(vUV, 0.5));
    int id = texelFetch(isampler2D(idTex, nearestSampler), ivec2(gl_FragCoord.xy), 0).x;
    vec4 b = texelFetch(samplerBuffer(texBuf, nearestSampler), id);
    outColor = vec4(graded + refl * 0.1, c.a) * shadow + layer * 0.01 + indexed * 0.01 + b * 0.0;
}
