#version 450
// Deferred G-buffer write: several typed color attachments.
layout(location = 0) in vec3 vWorldPos;
layout(location = 1) in vec3 vNormal;
layout(location = 2) in vec2 vUV;
layout(location = 3) flat in uint vMaterial;
layout(binding = 0) uniform sampler2D albedo;
layout(location = 0) out vec4 gAlbedo;
layout(location = 1) out vec4 gNormal;
layout(location = 2) out vec4 gPosition;
layout(location = 3) out uint gMaterial;
layout(location = 4) out ivec2 gMotion;

void main() {
    gAlbedo = texture(albedo, vUV);
    gNormal = vec4(normalize(vNormal) * 0.5 + 0.5, 1.0);
    gPosition = vec4(vWorldPos, gl_FragCoord.z);
    gMaterial = vMaterial;
    gMotion = ivec2(round(dFdx(vWorldPos.xy) * 100.0));
}
