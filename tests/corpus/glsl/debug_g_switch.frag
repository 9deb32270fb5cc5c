// args: -g
#version 450
// Debug info (-g) plus a switch-based material evaluator.
layout(location = 0) in vec3 vNormal;
layout(location = 1) flat in int vMaterial;
layout(location = 0) out vec4 outColor;

vec3 shade(int material, vec3 n) {
    vec3 c;
    switch (material) {
    case 0:
        c = vec3(1.0, 0.0, 0.0);
        break;
    case 1:
    case 2:
        c = abs(n);
        break;
    case 10:
        c = vec3(dot(n, vec3(0.0, 1.0, 0.0)));
        // fall through
    case 11:
        c *= 0.5;
        break;
    default:
        c = vec3(0.5);
    }
    return c;
}

void main() {
    outColor = vec4(shade(vMaterial, normalize(vNormal)), 1.0);
}
