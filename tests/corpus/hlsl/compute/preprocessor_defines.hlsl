// ARGS: -T cs_6_0 -E main -D SCALE=3 -D USE_OFFSET -D NAME_OF_BLOCK=Values
// GLSLANG: same
// -D NAME=VALUE and -D NAME (defined as 1) on the command line, used in expressions, in #if
// and as an identifier.
RWStructuredBuffer<int> NAME_OF_BLOCK : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int v = 5 * SCALE;
#if USE_OFFSET
    v += 100;
#endif
#if defined(SCALE) && SCALE > 2
    Values[1] = USE_OFFSET;
#else
    Values[1] = -1;
#endif
    Values[0] = v;
}
