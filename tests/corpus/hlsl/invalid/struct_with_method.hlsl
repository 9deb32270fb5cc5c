// ARGS: -T cs_6_0 -E main
// ERROR: 7:9: not supported yet
// Member functions are outside this frontend's scope: reported at the method's name.
struct Counter
{
    int n;
    int next()
    {
        return n + 1;
    }
};

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Counter c;
    c.n = 1;
    Out[0] = c.next();
}
