#version 450
// Isoline evaluation: Catmull-Rom strands with fractional-even spacing.
layout(isolines, fractional_even_spacing) in;
layout(location = 0) in vec4 tcTangent[];
layout(binding = 0) uniform VP { mat4 viewProj; float spread; } vp;
layout(location = 0) out float teT;

vec3 catmullRom(vec3 p0, vec3 p1, vec3 p2, vec3 p3, float t) {
    float t2 = t * t, t3 = t2 * t;
    return 0.5 * ((2.0 * p1) + (-p0 + p2) * t + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
                  + (-p0 + 3.0 * p1 - 3.0 * p2 + p3) * t3);
}

void main() {
    float t = gl_TessCoord.x;
    float strand = gl_TessCoord.y;
    vec3 p = catmullRom(gl_in[0].gl_Position.xyz, gl_in[1].gl_Position.xyz,
                        gl_in[2].gl_Position.xyz, gl_in[3].gl_Position.xyz, t);
    p += tcTangent[1].xyz * (strand - 0.5) * vp.spread;
    teT = t;
    gl_Position = vp.viewProj * vec4(p, 1.0);
}
