// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// One RWStructuredBuffer read and written by 16 invocations in two groups, each its own
// element, plus a second buffer written at a computed index.
RWStructuredBuffer<int> Data : register(u0);
RWStructuredBuffer<int> Reversed : register(u1);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int v = Data[id.x];
    Data[id.x] = v * 2 + (int)id.x;
    Reversed[15 - id.x] = v;
}
