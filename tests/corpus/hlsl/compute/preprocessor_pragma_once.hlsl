// ARGS: -T cs_6_0 -E main -I include
// GLSLANG: fails: glslang does not implement #pragma once ("not implemented"), so the second
// inclusion of common.hlsli redefines its contents
// #pragma once: a header included twice directly and once through another header is read once.
#include "common.hlsli"
#include "math_utils.hlsli"
#include "common.hlsli"
#include "guarded.hlsli"

RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Range r;
    r.lo = -2;
    r.hi = 5;
    Out[0] = SQUARE(7u);
    Out[1] = PACK2(3u, 4u);
    Out[2] = kMagic;
    Out[3] = mix_bits(2u, 5u);
    Out[4] = (uint)clamp_to(r, 9);
    Out[5] = (uint)clamp_to(r, -9) + 10u;
    Out[6] = (uint)(dot(luminance_weights(), float3(4, 8, 12)));
}
