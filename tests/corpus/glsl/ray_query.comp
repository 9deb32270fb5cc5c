#version 460
// args: --target-env vulkan1.2
// Inline ray tracing (GL_EXT_ray_query) for ambient occlusion.
#extension GL_EXT_ray_query : require
layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0) uniform accelerationStructureEXT tlas;
layout(binding = 1, rgba32f) uniform readonly image2D gbufferPos;
layout(binding = 2, rgba32f) uniform readonly image2D gbufferNormal;
layout(binding = 3, r8) uniform writeonly image2D aoOut;

float traceOcclusion(vec3 origin, vec3 dir) {
    rayQueryEXT rq;
    rayQueryInitializeEXT(rq, tlas, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT, 0xFF,
                          origin, 0.001, dir, 1.0);
    while (rayQueryProceedEXT(rq)) {
        if (rayQueryGetIntersectionTypeEXT(rq, false) == gl_RayQueryCandidateIntersectionTriangleEXT) {
            if (rayQueryGetIntersectionTEXT(rq, false) > 0.01) {
                rayQueryConfirmIntersectionEXT(rq);
            }
        } else {
            rayQueryGenerateIntersectionEXT(rq, 0.5);
        }
    }
    if (rayQueryGetIntersectionTypeEXT(rq, true) != gl_RayQueryCommittedIntersectionNoneEXT) {
        int inst = rayQueryGetIntersectionInstanceIdEXT(rq, true);
        vec2 bary = rayQueryGetIntersectionBarycentricsEXT(rq, true);
        mat4x3 o2w = rayQueryGetIntersectionObjectToWorldEXT(rq, true);
        bool front = rayQueryGetIntersectionFrontFaceEXT(rq, true);
        return front ? 1.0 : 0.5 + float(inst) * 0.0 + bary.x * 0.0 + o2w[0][0] * 0.0;
    }
    rayQueryTerminateEXT(rq);
    return 0.0;
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec3 pos = imageLoad(gbufferPos, p).xyz;
    vec3 n = normalize(imageLoad(gbufferNormal, p).xyz);
    vec3 t = normalize(cross(n, abs(n.x) > 0.9 ? vec3(0, 1, 0) : vec3(1, 0, 0)));
    vec3 b = cross(n, t);
    float occ = 0.0;
    for (int i = 0; i < 4; ++i) {
        float a = float(i) * 1.5707963;
        vec3 d = normalize(n + 0.7 * (cos(a) * t + sin(a) * b));
        occ += traceOcclusion(pos, d);
    }
    imageStore(aoOut, p, vec4(1.0 - occ * 0.25));
}
