#version 450
// Procedural value noise + fbm, writing into a 3D storage texture.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;

layout(binding = 0, r16f) uniform writeonly image3D volume;
layout(push_constant) uniform PC { vec3 offset; float frequency; int octaves; float lacunarity; float gain; } pc;

uint hash(uvec3 x) {
    x = ((x >> 8u) ^ x.yzx) * 1103515245u;
    x = ((x >> 8u) ^ x.yzx) * 1103515245u;
    x = ((x >> 8u) ^ x.yzx) * 1103515245u;
    return x.x;
}

float valueNoise(vec3 p) {
    vec3 i = floor(p);
    vec3 f = fract(p);
    vec3 u = f * f * (3.0 - 2.0 * f);
    float n000 = float(hash(uvec3(ivec3(i) + ivec3(0, 0, 0)))) / 4294967295.0;
    float n100 = float(hash(uvec3(ivec3(i) + ivec3(1, 0, 0)))) / 4294967295.0;
    float n010 = float(hash(uvec3(ivec3(i) + ivec3(0, 1, 0)))) / 4294967295.0;
    float n110 = float(hash(uvec3(ivec3(i) + ivec3(1, 1, 0)))) / 4294967295.0;
    float n001 = float(hash(uvec3(ivec3(i) + ivec3(0, 0, 1)))) / 4294967295.0;
    float n101 = float(hash(uvec3(ivec3(i) + ivec3(1, 0, 1)))) / 4294967295.0;
    float n011 = float(hash(uvec3(ivec3(i) + ivec3(0, 1, 1)))) / 4294967295.0;
    float n111 = float(hash(uvec3(ivec3(i) + ivec3(1, 1, 1)))) / 4294967295.0;
    return mix(mix(mix(n000, n100, u.x), mix(n010, n110, u.x), u.y),
               mix(mix(n001, n101, u.x), mix(n011, n111, u.x), u.y), u.z);
}

float fbm(vec3 p) {
    float amp = 0.5;
    float sum = 0.0;
    int oct = 0;
    do {
        sum += amp * valueNoise(p);
        p *= pc.lacunarity;
        amp *= pc.gain;
        ++oct;
    } while (oct < pc.octaves);
    return sum;
}

void main() {
    vec3 p = vec3(gl_GlobalInvocationID) * pc.frequency + pc.offset;
    float n = fbm(p);
    n = smoothstep(0.2, 0.8, n) + step(0.5, n) * 0.0;
    n = pow(max(n, 0.0), 1.2) + exp2(-8.0) * sin(p.x) * cos(p.y) * tan(0.1) + atan(p.z, 1.0) * 0.0;
    imageStore(volume, ivec3(gl_GlobalInvocationID), vec4(n));
}
