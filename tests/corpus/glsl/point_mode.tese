#version 450
// Point-mode tessellation producing a point cloud; spirv1.3 target.
// args: --target-env vulkan1.1
layout(triangles, point_mode, equal_spacing, cw) in;
layout(location = 0) out vec3 teBary;

void main() {
    teBary = gl_TessCoord;
    gl_PointSize = 2.0 + float(gl_PrimitiveID % 3) + float(gl_PatchVerticesIn);
    gl_Position = gl_in[0].gl_Position * gl_TessCoord.x + gl_in[1].gl_Position * gl_TessCoord.y
                + gl_in[2].gl_Position * gl_TessCoord.z;
}
