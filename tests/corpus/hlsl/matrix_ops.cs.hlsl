// Matrix types, mul() in both orders, row_major/column_major, transpose, determinant.
struct Transform {
    row_major float4x4 world;
    column_major float3x3 normal;
    float2x3 uvXform;
};
StructuredBuffer<Transform> Transforms : register(t0);
StructuredBuffer<float4> Points : register(t1);
RWStructuredBuffer<float4> Result : register(u0);

cbuffer Camera : register(b0) {
    float4x4 viewProj;
    row_major float3x4 extra;
};

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Transform t = Transforms[id.x];
    float4 p = Points[id.x];
    float4 w = mul(t.world, p);
    float4 c = mul(w, viewProj);
    float3 n = mul(t.normal, normalize(p.xyz));
    float2 uv = mul(t.uvXform, float3(p.xy, 1.0));
    float3 e = mul(extra, p);
    float4x4 tr = transpose(viewProj);
    float det = determinant(t.world) + determinant(t.normal);
    float2x2 m2 = float2x2(1, 2, 3, 4);
    float2 v2 = mul(m2, uv) + mul(uv, m2);
    Result[id.x] = c + float4(n + e, det) + mul(tr, float4(v2, 0, 0)) * 0.0;
}
