#version 450
// Isoline tessellation control for hair strands.
layout(vertices = 4) out;
layout(location = 0) in vec4 vTangent[];
layout(location = 0) out vec4 tcTangent[];
layout(binding = 0) uniform Hair { int strands; int segments; } hair;

void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    tcTangent[gl_InvocationID] = vTangent[gl_InvocationID];
    gl_TessLevelOuter[0] = float(hair.strands);
    gl_TessLevelOuter[1] = float(hair.segments);
    gl_out[gl_InvocationID].gl_PointSize = float(gl_PatchVerticesIn + gl_PrimitiveID);
}
