// ARGS: -T cs_6_0 -E main
// GLSLANG: differs: glslang gives every resource without a binding binding 0; DXC reserves
// the explicit bindings (0 and 1) and numbers the others from the first free one (A: 2, D: 3)
// Implicit bindings are assigned in declaration order after the explicit ones are reserved.
RWStructuredBuffer<int> A;
[[vk::binding(0)]] StructuredBuffer<int> B;
RWStructuredBuffer<int> C : register(u1);
RWStructuredBuffer<int> D;

[numthreads(1, 1, 1)]
void main()
{
    A[0] = B[0] + 1;
    C[0] = B[0] + 2;
    D[0] = B[0] + 3;
}
