// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Object-like and function-like macros (arguments with nested parentheses, macros using
// macros, redefinition after #undef), #if/#elif/#else with arithmetic and defined(),
// #ifdef/#ifndef, and line continuations.
#define COUNT 4
#define TWICE(x) ((x) * 2)
#define ADD3(a, b, c) ((a) + (b) + (c))
#define QUAD(x) TWICE(TWICE(x))
#define LONG_SUM(a, b) \
    ((a) +             \
     (b))
#define VERSION 3

RWStructuredBuffer<int> Out : register(u0);

#if VERSION >= 3 && defined(COUNT)
#define PICK 30
#elif VERSION == 2
#define PICK 20
#else
#define PICK 10
#endif

#ifdef NOT_DEFINED
#error this must be skipped
#endif

#ifndef ALSO_NOT_DEFINED
#define FALLBACK 7
#endif

#if 0
this is not HLSL and is skipped
#endif

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = COUNT;
    Out[1] = TWICE(COUNT + 1);
    Out[2] = ADD3(1, TWICE(2), (3, 4));
    Out[3] = QUAD(3);
    Out[4] = LONG_SUM(10, 20);
    Out[5] = PICK;
    Out[6] = FALLBACK;
#undef COUNT
#define COUNT 9
    Out[7] = COUNT;
}
