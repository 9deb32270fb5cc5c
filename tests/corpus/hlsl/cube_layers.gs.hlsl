// Instanced geometry shader writing SV_RenderTargetArrayIndex / SV_ViewportArrayIndex.
cbuffer Faces : register(b0) { float4x4 FaceViewProj[6]; };
struct GSIn { float3 world : TEXCOORD0; };
struct GSOut {
    float4 pos : SV_Position;
    float3 world : TEXCOORD0;
    uint layer : SV_RenderTargetArrayIndex;
    uint viewport : SV_ViewportArrayIndex;
};

[maxvertexcount(3)]
[instance(6)]
void main(triangle GSIn tri[3], uint face : SV_GSInstanceID, uint prim : SV_PrimitiveID, inout TriangleStream<GSOut> stream) {
    for (int v = 0; v < 3; ++v) {
        GSOut o;
        o.world = tri[v].world;
        o.pos = mul(FaceViewProj[face], float4(tri[v].world, 1));
        o.layer = face;
        o.viewport = (face + prim) % 2;
        stream.Append(o);
    }
}
