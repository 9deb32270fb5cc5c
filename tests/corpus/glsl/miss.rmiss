#version 460
// args: --target-env vulkan1.2
// Miss shader: procedural sky gradient from an environment cube map.
#extension GL_EXT_ray_tracing : require
struct RayPayload { vec3 color; float distance; uint depth; };
layout(location = 0) rayPayloadInEXT RayPayload payload;
layout(binding = 4) uniform samplerCube envMap;

void main() {
    vec3 dir = normalize(gl_WorldRayDirectionEXT);
    float t = 0.5 * (dir.y + 1.0);
    vec3 sky = mix(vec3(1.0), vec3(0.5, 0.7, 1.0), t);
    payload.color = sky * textureLod(envMap, dir, 0.0).rgb;
    payload.distance = -1.0;
}
