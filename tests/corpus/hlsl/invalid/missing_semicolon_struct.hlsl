// ARGS: -T cs_6_0 -E main
// ERROR: 7:2: expected ';'
// A struct definition without the `;` after its `}`.
struct S
{
    int a;
}

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
