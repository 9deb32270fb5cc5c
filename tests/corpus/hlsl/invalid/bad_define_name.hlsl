// ARGS: -T cs_6_0 -E main
// ERROR: 4:9: macro name
// #define of something that is not an identifier.
#define 123 456

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
