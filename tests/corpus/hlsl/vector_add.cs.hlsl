// Element-wise vector add with StructuredBuffer / RWStructuredBuffer.
StructuredBuffer<float> A : register(t0);
StructuredBuffer<float> B : register(t1);
RWStructuredBuffer<float> C : register(u0);

cbuffer Params : register(b0) {
    uint count;
    float scale;
};

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= count) return;
    C[id.x] = (A[id.x] + B[id.x]) * scale;
}
