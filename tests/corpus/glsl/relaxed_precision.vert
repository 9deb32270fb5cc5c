#version 310 es
// ESSL with precision qualifiers (RelaxedPrecision decorations).
precision mediump float;
precision highp int;
layout(location = 0) in highp vec4 aPosition;
layout(location = 1) in lowp vec4 aColor;
layout(location = 2) in mediump vec2 aUV;
layout(std140, binding = 0) uniform U { highp mat4 mvp; mediump float fade; lowp int mode; } u;
layout(location = 0) out lowp vec4 vColor;
layout(location = 1) out mediump vec2 vUV;

void main() {
    mediump vec4 c = aColor * u.fade;
    if (u.mode == 1) {
        c.rgb = vec3(dot(c.rgb, vec3(0.299, 0.587, 0.114)));
    }
    vColor = c;
    vUV = aUV * 2.0 - 1.0;
    gl_Position = u.mvp * aPosition;
}
