// args: --target-env vulkan1.1
// Nested structs, arrays in structs, structured buffers of structs, GetDimensions on structured buffers.
struct Bone { float4x4 xform; float3 pivot; int parent; };
struct Skeleton { Bone bones[4]; uint count; float3 scale; };
StructuredBuffer<Skeleton> Skeletons : register(t0);
RWStructuredBuffer<float4x4> Palette : register(u0);

float4x4 boneChain(Skeleton sk, int b) {
    float4x4 m = sk.bones[b].xform;
    [loop]
    for (int depth = 0; depth < 4 && sk.bones[b].parent >= 0; ++depth) {
        b = sk.bones[b].parent;
        m = mul(sk.bones[b].xform, m);
    }
    return m;
}

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID) {
    uint n, stride;
    Skeletons.GetDimensions(n, stride);
    if (gid.x >= n) return;
    Skeleton sk = Skeletons[gid.x];
    if (id.x % 4 < sk.count) {
        Palette[id.x] = boneChain(sk, id.x % 4);
    }
}
