// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// [[vk::binding(b, s)]] places a resource in set s at binding b, and wins over register().
[[vk::binding(3, 1)]] RWStructuredBuffer<int> A;
[[vk::binding(0, 2)]] StructuredBuffer<int> B : register(t5);
[[vk::binding(1)]] StructuredBuffer<int> C;

[numthreads(1, 1, 1)]
void main()
{
    A[0] = B[0] + C[0];
    A[1] = B[1] * C[1];
}
