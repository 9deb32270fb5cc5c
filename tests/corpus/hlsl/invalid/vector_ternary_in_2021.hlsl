// ARGS: -T cs_6_0 -E main
// ERROR: 10:14: condition for short-circuiting ternary operator must be scalar, for non-scalar types use 'select'
// HLSL 2021 short-circuits `?:`, so its condition must be a scalar (DXC: use `select`).
RWStructuredBuffer<uint2> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    uint2 v = Out[0];
    Out[1] = (v > 1) ? v : Out[2];
}
