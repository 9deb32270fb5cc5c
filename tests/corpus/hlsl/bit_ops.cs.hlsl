// HLSL integer and bit intrinsics.
RWStructuredBuffer<uint4> U : register(u0);
RWStructuredBuffer<int4> S : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint4 u = U[id.x];
    int4 s = S[id.x];
    uint4 r;
    r.x = countbits(u.x) + firstbithigh(u.y) + firstbitlow(u.z);
    r.y = reversebits(u.w);
    r.z = f32tof16(asfloat(u.x)) | (f32tof16(1.0f) << 16);
    r.w = (uint)(f16tof32(u.y) * 10.0f);
    int4 q = s >> 2;
    q += firstbithigh(s.x);
    q = max(q, -s) ^ (s << 1);
    U[id.x] = r + (u << 3) - (u >> 1) + (u % 7);
    S[id.x] = q * sign(s) + abs(s) / max(s, 1) + clamp(s, -5, 5);
}
