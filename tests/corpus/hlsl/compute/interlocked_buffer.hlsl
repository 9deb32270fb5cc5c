// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Interlocked* on RWStructuredBuffer elements with and without the original value; one
// invocation, so every original value is determined.
RWStructuredBuffer<int> I : register(u0);
RWStructuredBuffer<uint> U : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    int o;
    InterlockedAdd(I[0], 5, o);
    I[8] = o;
    InterlockedMin(I[1], -4, o);
    I[9] = o;
    InterlockedMax(I[2], -4);
    InterlockedExchange(I[3], 77, o);
    I[10] = o;
    InterlockedCompareExchange(I[4], 4, 40, o);
    I[11] = o;
    InterlockedCompareExchange(I[5], 0, 50, o);
    I[12] = o;
    uint u;
    InterlockedAnd(U[0], 0x0Fu, u);
    U[8] = u;
    InterlockedOr(U[1], 0x100u);
    InterlockedXor(U[2], 0xFFu, u);
    U[9] = u;
    InterlockedMin(U[3], 0xFFFFFFFFu);
    InterlockedMax(U[4], 0xFFFFFFFFu);
}
