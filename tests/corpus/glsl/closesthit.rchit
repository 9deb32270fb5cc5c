#version 460
// args: --target-env vulkan1.2
// Closest hit: barycentric interpolation via buffer references, shader record data, callable shaders.
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_scalar_block_layout : require

struct RayPayload { vec3 color; float distance; uint depth; };
layout(location = 0) rayPayloadInEXT RayPayload payload;
layout(location = 2) callableDataEXT vec4 callableColor;
hitAttributeEXT vec2 attribs;

layout(buffer_reference, scalar) readonly buffer Normals { vec3 n[]; };
layout(buffer_reference, scalar) readonly buffer Indices { uvec3 tri[]; };

layout(shaderRecordEXT, std430) buffer SBT { Normals normals; Indices indices; uint materialCallable; } sbt;
layout(binding = 3) uniform sampler2D textures[];

void main() {
    vec3 bary = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);
    uvec3 tri = sbt.indices.tri[gl_PrimitiveID];
    vec3 n = normalize(sbt.normals.n[tri.x] * bary.x + sbt.normals.n[tri.y] * bary.y + sbt.normals.n[tri.z] * bary.z);
    vec3 worldN = normalize(vec3(n * gl_WorldToObjectEXT));
    vec3 hitPos = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
    callableColor = vec4(worldN, float(gl_InstanceCustomIndexEXT));
    executeCallableEXT(sbt.materialCallable, 2);
    vec4 tex = textureLod(textures[nonuniformEXT(gl_InstanceCustomIndexEXT)], bary.yz, 0.0);
    payload.color = callableColor.rgb * tex.rgb * max(dot(worldN, normalize(vec3(1, 1, 0))), 0.1);
    payload.distance = gl_HitTEXT + length(hitPos) * 0.0 + float(gl_GeometryIndexEXT + gl_InstanceID) * 0.0
                       + gl_RayTminEXT * 0.0 + float(gl_HitKindEXT == gl_HitKindFrontFacingTriangleEXT)
                       + gl_ObjectToWorldEXT[3][0] * 0.0 + gl_ObjectRayOriginEXT.x * 0.0 + gl_ObjectRayDirectionEXT.y * 0.0
                       + float(gl_IncomingRayFlagsEXT) * 0.0 + gl_RayTmaxEXT * 0.0;
    payload.depth++;
}
