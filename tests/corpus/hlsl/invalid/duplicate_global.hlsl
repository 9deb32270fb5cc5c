// ARGS: -T cs_6_0 -E main
// ERROR: 5:14: redefinition
// Two static globals with the same name.
static float gScale = 1.0;
static float gScale = 2.0;
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = gScale;
}
