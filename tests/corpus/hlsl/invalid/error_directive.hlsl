// ARGS: -T cs_6_0 -E main
// ERROR: 5:1: REQUIRED_SETTING must be defined
// #error stops the compilation with its message.
#ifndef REQUIRED_SETTING
#error REQUIRED_SETTING must be defined
#endif

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
