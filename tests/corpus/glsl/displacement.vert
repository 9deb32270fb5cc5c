#version 450
// Height-map displacement with explicit-LOD sampling in the vertex stage.
layout(location = 0) in vec2 inGrid;
layout(binding = 0) uniform sampler2D heightMap;
layout(binding = 1) uniform sampler2DArray detailLayers;
layout(binding = 2) uniform Terrain { mat4 viewProj; vec2 worldScale; float heightScale; int layer; } terrain;

layout(location = 0) out vec3 vWorld;
layout(location = 1) out vec2 vUV;

void main() {
    vec2 uv = inGrid;
    float h = textureLod(heightMap, uv, 0.0).r;
    h += textureLod(detailLayers, vec3(uv * 8.0, float(terrain.layer)), 1.0).r * 0.05;
    ivec2 size = textureSize(heightMap, 0);
    float hx = texelFetch(heightMap, ivec2(uv * vec2(size)) + ivec2(1, 0), 0).r;
    float hy = textureLodOffset(heightMap, uv, 0.0, ivec2(0, 1)).r;
    vec3 world = vec3(uv.x * terrain.worldScale.x, (h + (hx + hy) * 0.01) * terrain.heightScale, uv.y * terrain.worldScale.y);
    vWorld = world;
    vUV = uv;
    gl_Position = terrain.viewProj * vec4(world, 1.0);
}
