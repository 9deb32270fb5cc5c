// Post-process tonemap with static const arrays, functions with out params and loops.
Texture2D<float4> Hdr : register(t0);
Texture2D<float> Luminance : register(t1);
SamplerState PointClamp : register(s0);
cbuffer Post : register(b0) { float Exposure; float WhitePoint; int Operator; float2 InvResolution; };

static const float3x3 ACESInput = float3x3(
    0.59719, 0.35458, 0.04823,
    0.07600, 0.90834, 0.01566,
    0.02840, 0.13383, 0.83777);
static const float3x3 ACESOutput = float3x3(
    1.60475, -0.53108, -0.07367,
    -0.10208, 1.10813, -0.00605,
    -0.00327, -0.07276, 1.07602);

float3 RRTAndODTFit(float3 v) {
    float3 a = v * (v + 0.0245786f) - 0.000090537f;
    float3 b = v * (0.983729f * v + 0.4329510f) + 0.238081f;
    return a / b;
}

void Reinhard(float3 c, float white, out float3 result, out float lum) {
    lum = dot(c, float3(0.2126, 0.7152, 0.0722));
    float mapped = lum * (1.0 + lum / (white * white)) / (1.0 + lum);
    result = c * (mapped / max(lum, 1e-5));
}

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    float avgLum = exp(Luminance.SampleLevel(PointClamp, float2(0.5, 0.5), 10));
    float3 c = Hdr.Sample(PointClamp, uv).rgb * Exposure / max(avgLum, 1e-4);
    float3 result;
    float lum;
    switch (Operator) {
    case 0:
        Reinhard(c, WhitePoint, result, lum);
        break;
    case 1:
        result = mul(ACESOutput, RRTAndODTFit(mul(ACESInput, c)));
        break;
    default:
        result = c / (1.0 + c);
        break;
    }
    return float4(pow(saturate(result), 1.0 / 2.2), 1.0);
}
