// ARGS: -T vs_6_0 -E main -I include -D FLIP=1
// GLSLANG: same
// #include with -I, -D, and a function-like macro in a vertex shader.
#include "guarded.hlsli"
#define TO_CLIP(p) float4((p) * 2.0 - 1.0, 0, 1)

float4 main(float2 uv : TEXCOORD0) : SV_Position
{
    float4 p = TO_CLIP(uv);
#if FLIP
    p.y = -p.y;
#endif
    p.x *= dot(luminance_weights(), float3(1, 1, 1));
    return p;
}
