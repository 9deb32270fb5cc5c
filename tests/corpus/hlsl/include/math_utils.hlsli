// Includes common.hlsli again: #pragma once keeps it from being defined twice.
#pragma once
#include "common.hlsli"

int clamp_to(Range r, int v)
{
    return v < r.lo ? r.lo : (v > r.hi ? r.hi : v);
}
