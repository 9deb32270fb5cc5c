// args: -g
#version 450
// Triangle tessellation control compiled with debug info.
layout(vertices = 3) out;
layout(location = 0) in vec2 vUV[];
layout(location = 0) out vec2 tcUV[];
layout(constant_id = 0) const float LEVEL = 4.0;

void main() {
    tcUV[gl_InvocationID] = vUV[gl_InvocationID];
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0) {
        for (int i = 0; i < 3; ++i) {
            gl_TessLevelOuter[i] = LEVEL;
        }
        gl_TessLevelInner[0] = LEVEL * 0.5;
    }
}
