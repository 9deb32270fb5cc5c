// Shared helpers for the corpus shaders (#include "common.hlsli" with -I include).
#pragma once

#define SQUARE(x) ((x) * (x))
#define PACK2(hi, lo) (((hi) << 16) | (lo))

static const uint kMagic = 0xC0FFEEu;

uint mix_bits(uint a, uint b)
{
    return (a * 31u) ^ b;
}

struct Range
{
    int lo;
    int hi;
};
