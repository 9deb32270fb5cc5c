// ARGS: -T cs_6_0 -E main
// ERROR: 8:5: assign
// ++ on a const parameter.
RWStructuredBuffer<int> Out : register(u0);

int next(const int x)
{
    x++;
    return x;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = next(1);
}
