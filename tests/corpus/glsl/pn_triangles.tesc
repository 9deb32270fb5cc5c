#version 450
// PN-triangle control points computed per invocation, with a barrier before patch outputs.
layout(vertices = 3) out;
layout(location = 0) in vec3 vNormal[];
layout(location = 0) out vec3 tcNormal[];
layout(location = 1) patch out vec3 tcB210;
layout(location = 2) patch out vec3 tcB120;
layout(location = 3) patch out vec3 tcB111;
layout(push_constant) uniform PC { float level; } pc;

vec3 projectToPlane(vec3 p, vec3 planePoint, vec3 planeNormal) {
    return p - dot(p - planePoint, planeNormal) * planeNormal;
}

void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    tcNormal[gl_InvocationID] = normalize(vNormal[gl_InvocationID]);
    barrier();
    if (gl_InvocationID == 0) {
        vec3 p0 = gl_in[0].gl_Position.xyz, p1 = gl_in[1].gl_Position.xyz, p2 = gl_in[2].gl_Position.xyz;
        tcB210 = (2.0 * p0 + p1 - dot(p1 - p0, tcNormal[0]) * tcNormal[0]) / 3.0;
        tcB120 = projectToPlane((p0 + 2.0 * p1) / 3.0, p1, tcNormal[1]);
        tcB111 = (p0 + p1 + p2) / 3.0;
        gl_TessLevelOuter[0] = pc.level;
        gl_TessLevelOuter[1] = pc.level;
        gl_TessLevelOuter[2] = pc.level;
        gl_TessLevelInner[0] = pc.level;
    }
}
