// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Math intrinsics in a pixel shader: pow, exp2, log2, frac, floor, step, smoothstep, clamp,
// atan2, sqrt, rsqrt, fmod, sign, abs, mad.
// CHECK: OpExtInst %{{\w+}} %{{\w+}} Pow
float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    float2 p = uv * 2 - 1;
    float r = sqrt(dot(p, p));
    float a = atan2(p.y, p.x);
    float rings = step(0.5, frac(r * 8.0));
    float soft = smoothstep(0.2, 0.8, r);
    float g = pow(saturate(1 - r), 2.2) + exp2(-r) + log2(1 + r);
    float m = fmod(floor(a * 4.0), 2.0);
    float s = (float)sign(p.x) * abs(p.y) * rsqrt(1 + r);
    return float4(clamp(rings * soft, 0, 1), g, mad(m, 0.5, s), 1);
}
