#version 450
// args: --target-env vulkan1.1
// Fragment shading rate and barycentric coordinates.
#extension GL_EXT_fragment_shading_rate : require
#extension GL_EXT_fragment_shader_barycentric : require
layout(location = 0) pervertexEXT in vec4 vColor[];
layout(location = 0) out vec4 outColor;

void main() {
    int rate = gl_ShadingRateEXT;
    vec3 bary = gl_BaryCoordEXT;
    vec3 baryNP = gl_BaryCoordNoPerspEXT;
    vec4 c = vColor[0] * bary.x + vColor[1] * bary.y + vColor[2] * bary.z;
    bool coarse = (rate & (gl_ShadingRateFlag2HorizontalPixelsEXT | gl_ShadingRateFlag2VerticalPixelsEXT)) != 0;
    outColor = coarse ? c * 0.5 : c + vec4(baryNP, 0.0) * 0.0;
}
