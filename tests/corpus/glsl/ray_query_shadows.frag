// args: --target-env vulkan1.2 -gV
#version 460
// Ray-query shadows from a fragment shader; NonSemantic debug info without source (-gV).
#extension GL_EXT_ray_query : require
layout(binding = 0) uniform accelerationStructureEXT tlas;
layout(binding = 1) uniform Light { vec3 dir; float softness; } light;
layout(location = 0) in vec3 vWorld;
layout(location = 1) in vec3 vNormal;
layout(location = 0) out vec4 outColor;

void main() {
    rayQueryEXT q;
    vec3 origin = vWorld + vNormal * 0.01;
    rayQueryInitializeEXT(q, tlas, gl_RayFlagsTerminateOnFirstHitEXT, 0xFF, origin, 0.0, -light.dir, 1e4);
    rayQueryProceedEXT(q);
    float lit = rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionNoneEXT ? 1.0 : light.softness;
    float t = rayQueryGetRayTMinEXT(q) + float(rayQueryGetRayFlagsEXT(q) & 0u);
    vec3 wo = rayQueryGetWorldRayOriginEXT(q) * 0.0 + rayQueryGetWorldRayDirectionEXT(q) * 0.0;
    outColor = vec4(vec3(max(dot(vNormal, -light.dir), 0.0) * lit) + wo + t * 0.0, 1.0);
}
