// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Swizzles: reordering, repetition, rgba names, swizzles of swizzles, of scalars, and write
// masks (including reordered ones) on the left of = and +=.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float4 v = float4(1.0, 2.0, 3.0, 4.0);
    float3 r = v.zyx;
    float4 d = v.xxyy;
    float2 c = v.ba;
    float s = 5.0;
    float3 ss = s.xxx;
    float2 nested = v.wzyx.yx;
    float4 w = float4(0, 0, 0, 0);
    w.xz = float2(7.0, 8.0);
    w.wy = v.xy;
    w.yz += 1.0;
    float3 m = float3(9, 9, 9);
    m.zx = m.xz * float2(2.0, 3.0);
    Out[0] = r.x;
    Out[1] = r.z;
    Out[2] = d.y + d.z;
    Out[3] = c.x - c.y;
    Out[4] = ss.y;
    Out[5] = nested.x;
    Out[6] = w.x;
    Out[7] = w.y;
    Out[8] = w.z;
    Out[9] = w.w;
    Out[10] = m.x;
    Out[11] = m.z;
}
