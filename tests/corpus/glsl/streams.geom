#version 450
// Multiple vertex streams (GeometryStreams capability) with transform feedback.
layout(points) in;
layout(points, max_vertices = 4) out;
layout(location = 0) in vec4 vData[];
layout(stream = 0, location = 0, xfb_buffer = 0, xfb_offset = 0) out vec4 stream0Out;
layout(stream = 1, location = 1, xfb_buffer = 1, xfb_offset = 0) out vec4 stream1Out;

void main() {
    stream0Out = vData[0];
    gl_Position = gl_in[0].gl_Position;
    EmitStreamVertex(0);
    EndStreamPrimitive(0);
    if (vData[0].w > 0.0) {
        stream1Out = vData[0] * 2.0;
        EmitStreamVertex(1);
        EndStreamPrimitive(1);
    }
}
