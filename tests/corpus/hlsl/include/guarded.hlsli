// A classic include guard instead of #pragma once.
#ifndef GUARDED_HLSLI
#define GUARDED_HLSLI

float3 luminance_weights()
{
    return float3(0.25, 0.5, 0.25);
}

#endif
