#version 450
// Subpass input attachments (single and multisampled) for deferred lighting.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput inAlbedo;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInput inNormal;
layout(input_attachment_index = 2, set = 0, binding = 2) uniform subpassInputMS inDepthMS;
layout(input_attachment_index = 3, set = 0, binding = 3) uniform usubpassInput inMaterial;
layout(location = 0) out vec4 outColor;
layout(binding = 4) uniform Light { vec3 dir; vec3 color; } light;

void main() {
    vec3 albedo = subpassLoad(inAlbedo).rgb;
    vec3 n = normalize(subpassLoad(inNormal).xyz * 2.0 - 1.0);
    float depth = 0.0;
    for (int s = 0; s < 4; ++s) {
        depth += subpassLoad(inDepthMS, s).r;
    }
    uint mat = subpassLoad(inMaterial).r;
    float ndl = max(dot(n, -light.dir), 0.0);
    outColor = vec4(albedo * light.color * ndl * (mat == 0u ? 1.0 : 0.5), depth * 0.25);
}
