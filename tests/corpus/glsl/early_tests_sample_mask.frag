#version 450
// early_fragment_tests, sample shading builtins and gl_SampleMask output.
layout(early_fragment_tests) in;
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;

void main() {
    int id = gl_SampleID;
    vec2 pos = gl_SamplePosition;
    int mask = gl_SampleMaskIn[0];
    gl_SampleMask[0] = mask & ~(1 << (id & 3));
    outColor = vColor * (gl_HelperInvocation ? 0.0 : 1.0) + vec4(pos, float(gl_FrontFacing), gl_FragCoord.w);
    outColor.a *= gl_PointCoord.x + float(gl_PrimitiveID & 1);
}
