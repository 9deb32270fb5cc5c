// ARGS: -T cs_6_0 -E main
// ERROR: 18:15: cannot convert
// Initialising a float from a struct.
struct Pair
{
    float a;
    float b;
};

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Pair p;
    p.a = 1;
    p.b = 2;
    float f = p;
    Out[0] = f;
}
