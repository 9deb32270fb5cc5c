#version 450
// Fragment shader interlock for programmable blending.
#extension GL_ARB_fragment_shader_interlock : require
layout(pixel_interlock_ordered) in;
layout(binding = 0, rgba8) uniform coherent image2D accum;
layout(location = 0) in vec4 vColor;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    beginInvocationInterlockARB();
    vec4 dst = imageLoad(accum, p);
    imageStore(accum, p, mix(dst, vColor, vColor.a));
    endInvocationInterlockARB();
}
