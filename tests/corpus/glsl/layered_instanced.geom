#version 450
// Geometry instancing into cube-map layers and multiple viewports.
#extension GL_ARB_viewport_array : require
layout(triangles, invocations = 6) in;
layout(triangle_strip, max_vertices = 3) out;
layout(binding = 0) uniform Faces { mat4 viewProj[6]; } faces;
layout(location = 0) in vec3 vWorld[];
layout(location = 0) out vec3 gWorld;

void main() {
    for (int i = 0; i < 3; ++i) {
        gl_Layer = gl_InvocationID;
        gl_ViewportIndex = gl_InvocationID % 2;
        gWorld = vWorld[i];
        gl_Position = faces.viewProj[gl_InvocationID] * vec4(vWorld[i], 1.0);
        EmitVertex();
    }
    EndPrimitive();
}
