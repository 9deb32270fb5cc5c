// ARGS: -T cs_6_0 -E main
// ERROR: 16:14: sqrt
// sqrt() of a struct.
struct S
{
    float x;
};

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    S s;
    s.x = 4;
    Out[0] = sqrt(s);
}
