// ARGS: -T cs_6_0 -E main
// ERROR: 10:5: assign
// Compound assignment to a static const global.
static const float kPi = 3.14159;
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    kPi += 1.0;
    Out[0] = kPi;
}
