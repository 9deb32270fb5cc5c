#version 450
// Nested structs, arrays of arrays, std140 vs std430, runtime arrays, .length().
layout(local_size_x = 32) in;

struct Material {
    vec4 albedo;
    float roughness;
    float metallic;
    int flags;
};

struct Light {
    vec3 position;
    float range;
    vec3 color;
    int type;
    mat4 shadowMatrix;
};

struct Scene {
    Light lights[4];
    Material materials[8];
    ivec2 counts;
    float weights[3][2];
};

layout(std140, binding = 0) uniform SceneUBO { Scene scene; mat3 normalMatrix; bool enabled; } ubo;

layout(std430, binding = 1) buffer Objects {
    uint objectCount;
    Material overrides[2][3];
    vec3 positions[];
} objs;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(objs.positions.length()) || !ubo.enabled) return;
    vec3 p = objs.positions[i];
    vec3 lit = vec3(0.0);
    for (int l = 0; l < ubo.scene.counts.x; ++l) {
        Light L = ubo.scene.lights[l];
        vec4 sp = L.shadowMatrix * vec4(p, 1.0);
        float d = distance(L.position, p);
        float atten = clamp(1.0 - d / L.range, 0.0, 1.0);
        lit += L.color * atten * (L.type == 0 ? 1.0 : sp.w);
    }
    Material m = ubo.scene.materials[i % 8u];
    m.albedo.rgb *= lit * ubo.scene.weights[i % 3u][1];
    objs.overrides[i % 2u][i % 3u] = m;
    objs.positions[i] = ubo.normalMatrix * p;
    atomicAdd(objs.objectCount, 1u);
}
