// args: -O2
// valid: no
// (llvm-spirv 15 emits OpSelect with a scalar condition and vector operands; spirv-val requires a
// condition vector of matching size)
// Vectorized colour-space conversion at -O2 (vector shuffles, selects, fmin/fmax).
float3 rgb2hsv(float3 c) {
    float4 K = (float4)(0.0f, -1.0f / 3.0f, 2.0f / 3.0f, -1.0f);
    float4 p = c.y < c.z ? (float4)(c.zy, K.wz) : (float4)(c.yz, K.xy);
    float4 q = c.x < p.x ? (float4)(p.xyw, c.x) : (float4)(c.x, p.yzx);
    float d = q.x - fmin(q.w, q.y);
    float e = 1.0e-10f;
    return (float3)(fabs(q.z + (q.w - q.y) / (6.0f * d + e)), d / (q.x + e), q.x);
}

__kernel void to_hsv(__global const float4 *rgb, __global float4 *hsv, int n) {
    int i = (int)get_global_id(0);
    if (i < n) {
        float4 c = rgb[i];
        hsv[i] = (float4)(rgb2hsv(c.xyz), c.w);
    }
}
