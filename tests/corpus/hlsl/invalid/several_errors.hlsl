// ARGS: -T cs_6_0 -E main
// ERROR: 16:12: undeclared identifier
// ERROR: 23:5: assign
// ERROR: 26:13: cannot convert
// ERROR: 27:32: undeclared identifier
// Three independent errors in one file: all are reported.
RWStructuredBuffer<int> Out : register(u0);

struct S
{
    int v;
};

int first()
{
    return undefined_a;
}

[numthreads(1, 1, 1)]
void main()
{
    const int k = 1;
    k = 2;
    S s;
    s.v = 1;
    int x = s;
    Out[0] = first() + k + x + undefined_b;
}
