// ARGS: -T cs_6_0 -E main
// ERROR: 7:2: expected ';'
// A struct definition without the `;` after its `}` (the next declaration starts with a keyword, so the `}` cannot be followed by a declarator).
struct S
{
    int a;
}

static const int kOne = 1;
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
