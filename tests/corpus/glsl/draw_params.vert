#version 460
// Draw parameters: gl_DrawID, gl_BaseVertex, gl_BaseInstance for multi-draw indirect.
layout(location = 0) in vec3 inPosition;
struct DrawData { mat4 model; vec4 color; };
layout(std430, binding = 0) readonly buffer Draws { DrawData draws[]; };
layout(binding = 1) uniform Cam { mat4 viewProj; } cam;
layout(location = 0) flat out vec4 vColor;
layout(location = 1) flat out int vIds;

void main() {
    DrawData d = draws[gl_DrawID];
    vColor = d.color;
    vIds = gl_BaseVertex + gl_BaseInstance * 65536 + gl_VertexIndex - gl_BaseVertex;
    gl_Position = cam.viewProj * d.model * vec4(inPosition, 1.0);
}
