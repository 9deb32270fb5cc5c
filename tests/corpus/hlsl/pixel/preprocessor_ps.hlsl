// ARGS: -T ps_6_0 -E main -I include -D QUALITY=2
// GLSLANG: same
// #include via -I, -D QUALITY=2, #if/#elif/#else and macros with arguments.
#include "guarded.hlsli"
#define LUMA(c) dot((c).rgb, luminance_weights())
#define TAPS(q) ((q) * 2 + 1)

Texture2D tex : register(t0);
SamplerState samp : register(s0);

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    float4 sum = 0;
#if QUALITY >= 3
    const int taps = TAPS(4);
#elif QUALITY == 2
    const int taps = TAPS(2);
#else
    const int taps = 1;
#endif
    for (int i = 0; i < taps; i++)
        sum += tex.Sample(samp, uv + float2(i - taps / 2, 0) / 512.0);
    sum /= taps;
    return float4(sum.rgb, LUMA(sum));
}
