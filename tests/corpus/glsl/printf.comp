#version 450
// Debug printf via GL_EXT_debug_printf (NonSemantic.DebugPrintf).
#extension GL_EXT_debug_printf : require
layout(local_size_x = 4) in;

layout(std430, binding = 0) readonly buffer Values { vec4 v[]; } vals;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = vals.v[i];
    debugPrintfEXT("invocation %u: v = (%f, %f, %f, %f)\n", i, v.x, v.y, v.z, v.w);
    if (v.x < 0.0) {
        debugPrintfEXT("negative x at %u: %1.3f %% \"quoted\" \\ tab\t%v4f", i, v.x, v);
    }
    debugPrintfEXT("hex %x oct %o sci %e\n", i, i, v.y);
}
