// ARGS: -T cs_6_0 -E main
// ERROR: 11:7: redefinition
// The same function defined twice.
RWStructuredBuffer<float> Out : register(u0);

float half_of(float x)
{
    return x * 0.5;
}

float half_of(float x)
{
    return x / 2.0;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = half_of(3.0);
}
