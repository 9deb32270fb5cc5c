// ARGS: -T cs_6_0 -E main
// ERROR: 9:14: expected ';'
// A declaration without its `;`: reported just after the last token.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = 1
    int b = 2;
    Out[0] = a + b;
}
