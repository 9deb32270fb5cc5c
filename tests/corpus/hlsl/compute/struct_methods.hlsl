// ARGS: -T cs_6_0 -E main
// GLSLANG: fails: glslang cannot call a base struct's method from a derived struct's method
// Member functions: implicit members, `this`, a method calling a method, a method that
// changes its object, a static method, and a derived struct calling its base's method.
struct Counter
{
    int n;
    int next()
    {
        return n + 1;
    }
    int afterNext()
    {
        return next() + this.next();
    }
    void add(int k)
    {
        n += k;
    }
    static int triple(int x)
    {
        return 3 * x;
    }
};

struct Named : Counter
{
    int id;
    int tagged()
    {
        return id * 100 + next();
    }
};

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Counter c;
    c.n = 1;
    Out[0] = c.next();
    Out[1] = c.afterNext();
    c.add(5);
    Out[2] = c.n;
    Out[3] = Counter::triple(c.n);
    Named t;
    t.n = 4;
    t.id = 7;
    Out[4] = t.tagged();
}
