#version 450
// Cook-Torrance PBR with multiple light types, IBL and tonemapping.
const float PI = 3.14159265359;
const int MAX_LIGHTS = 8;

struct Light {
    vec4 positionType;   // xyz position or direction, w: 0 = directional, 1 = point, 2 = spot
    vec4 colorIntensity;
    vec4 spotDirCos;     // xyz dir, w cos(outer)
};

layout(set = 0, binding = 0) uniform Frame {
    vec3 cameraPos;
    int lightCount;
    Light lights[MAX_LIGHTS];
    float exposure;
} frame;

layout(set = 1, binding = 0) uniform sampler2D baseColorMap;
layout(set = 1, binding = 1) uniform sampler2D metalRoughMap;
layout(set = 1, binding = 2) uniform sampler2D normalMap;
layout(set = 1, binding = 3) uniform samplerCube irradianceMap;
layout(set = 1, binding = 4) uniform samplerCube prefilterMap;
layout(set = 1, binding = 5) uniform sampler2D brdfLut;

layout(location = 0) in vec3 vWorldPos;
layout(location = 1) in vec3 vNormal;
layout(location = 2) in vec4 vTangent;
layout(location = 3) in vec2 vUV;
layout(location = 0) out vec4 outColor;

float distributionGGX(float NdotH, float rough) {
    float a = rough * rough;
    float a2 = a * a;
    float d = NdotH * NdotH * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

float geometrySchlickGGX(float NdotV, float rough) {
    float r = rough + 1.0;
    float k = (r * r) / 8.0;
    return NdotV / (NdotV * (1.0 - k) + k);
}

vec3 fresnelSchlick(float cosTheta, vec3 F0) {
    return F0 + (1.0 - F0) * pow(clamp(1.0 - cosTheta, 0.0, 1.0), 5.0);
}

vec3 perturbNormal() {
    vec3 t = normalize(vTangent.xyz);
    vec3 n = normalize(vNormal);
    vec3 b = cross(n, t) * vTangent.w;
    vec3 mapN = texture(normalMap, vUV).xyz * 2.0 - 1.0;
    return normalize(mat3(t, b, n) * mapN);
}

vec3 acesFilm(vec3 x) {
    const float a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), 0.0, 1.0);
}

void main() {
    vec4 base = texture(baseColorMap, vUV);
    vec2 mr = texture(metalRoughMap, vUV).bg;
    float metallic = mr.x;
    float roughness = max(mr.y, 0.04);
    vec3 N = perturbNormal();
    vec3 V = normalize(frame.cameraPos - vWorldPos);
    float NdotV = max(dot(N, V), 1e-4);
    vec3 F0 = mix(vec3(0.04), base.rgb, metallic);

    vec3 Lo = vec3(0.0);
    for (int i = 0; i < min(frame.lightCount, MAX_LIGHTS); ++i) {
        Light light = frame.lights[i];
        vec3 L;
        float attenuation = 1.0;
        int type = int(light.positionType.w);
        if (type == 0) {
            L = normalize(-light.positionType.xyz);
        } else {
            vec3 toLight = light.positionType.xyz - vWorldPos;
            float dist2 = dot(toLight, toLight);
            L = toLight * inversesqrt(dist2);
            attenuation = 1.0 / max(dist2, 1e-4);
            if (type == 2) {
                float cd = dot(-L, normalize(light.spotDirCos.xyz));
                attenuation *= smoothstep(light.spotDirCos.w, mix(light.spotDirCos.w, 1.0, 0.1), cd);
            }
        }
        vec3 H = normalize(V + L);
        float NdotL = max(dot(N, L), 0.0);
        float NdotH = max(dot(N, H), 0.0);
        float D = distributionGGX(NdotH, roughness);
        float G = geometrySchlickGGX(NdotV, roughness) * geometrySchlickGGX(NdotL, roughness);
        vec3 F = fresnelSchlick(max(dot(H, V), 0.0), F0);
        vec3 spec = D * G * F / (4.0 * NdotV * NdotL + 1e-4);
        vec3 kd = (1.0 - F) * (1.0 - metallic);
        Lo += (kd * base.rgb / PI + spec) * light.colorIntensity.rgb * light.colorIntensity.w * NdotL * attenuation;
    }

    vec3 F = fresnelSchlick(NdotV, F0);
    vec3 irradiance = texture(irradianceMap, N).rgb;
    vec3 R = reflect(-V, N);
    float maxLod = float(textureQueryLevels(prefilterMap) - 1);
    vec3 prefiltered = textureLod(prefilterMap, R, roughness * maxLod).rgb;
    vec2 brdf = texture(brdfLut, vec2(NdotV, roughness)).rg;
    vec3 ambient = (1.0 - F) * (1.0 - metallic) * irradiance * base.rgb + prefiltered * (F * brdf.x + brdf.y);

    vec3 color = acesFilm((Lo + ambient) * frame.exposure);
    outColor = vec4(pow(color, vec3(1.0 / 2.2)), base.a);
}
