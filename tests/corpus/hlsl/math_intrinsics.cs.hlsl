// HLSL math intrinsics: lerp, saturate, frac, rsqrt, sincos, ldexp, modf, etc.
RWStructuredBuffer<float4> Data : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 v = Data[id.x];
    float s, c;
    sincos(v.x, s, c);
    float ip;
    float fp = modf(v.y, ip);
    float4 r = lerp(v, v.wzyx, 0.25);
    r += saturate(v) + frac(v) + rsqrt(abs(v) + 1.0) + rcp(v + 2.0);
    r += log(abs(v) + 1.0) + log2(abs(v) + 1.0) + log10(abs(v) + 1.0) + exp(-abs(v)) + exp2(v * 0.1);
    r += step(0.5, v) + smoothstep(0.0, 1.0, v) + sign(v) + trunc(v) + round(v) + ceil(v) + floor(v);
    r.xy += float2(s, c) + atan2(v.y, v.x) + acos(saturate(v.z)) + asin(saturate(v.w)) + sinh(0.1) + cosh(0.2) + tanh(v.x);
    r.z += fp + ip + fmod(v.y, 3.0) + dot(v, v) + length(v.xyz) + distance(v.xy, v.zw);
    r.w += any(v > 2.0) ? 1.0 : 0.0 + (all(v < 0.0) ? 1.0 : 0.0) + (isnan(v.x) ? 1.0 : 0.0) + (isinf(v.y) ? 1.0 : 0.0);
    r.xyz += cross(v.xyz, float3(0, 1, 0)) + reflect(v.xyz, float3(0, 0, 1)) + refract(normalize(v.xyz), float3(0, 1, 0), 0.9);
    r += mad(v, 2.0, 1.0) + pow(abs(v), 2.2) + radians(v) + degrees(v) + faceforward(v, v, v);
    Data[id.x] = r;
}
