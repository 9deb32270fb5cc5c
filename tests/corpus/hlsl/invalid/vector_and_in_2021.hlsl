// ARGS: -T cs_6_0 -E main
// ERROR: 9:18: operands for short-circuiting logical binary operator must be scalar, for non-scalar types use 'and'
// HLSL 2021 short-circuits `&&`, so its operands must be scalars (DXC: use `and`).
RWStructuredBuffer<uint2> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    bool2 both = Out[0] && Out[1];
    Out[2] = uint2(both);
}
