// ARGS: -T cs_6_0 -E main
// ERROR: 16:14: invalid operands
// Adding an int to a struct.
struct S
{
    int v;
};

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    S s;
    s.v = 1;
    Out[0] = s + 1;
}
