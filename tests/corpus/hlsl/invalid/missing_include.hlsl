// ARGS: -T cs_6_0 -E main -I include
// ERROR: 4:10: not found
// #include of a file in neither the file's directory nor -I.
#include "does_not_exist.hlsli"

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
