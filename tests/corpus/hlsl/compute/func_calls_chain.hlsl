// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// User functions calling each other (declared before use, and a prototype defined later),
// returning vectors and structs, with the results used in expressions.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

struct Stats
{
    int minimum;
    int maximum;
    int total;
};

int later(int x);

int square(int x) { return x * x; }
int sumSquares(int a, int b) { return square(a) + square(b); }
int2 both(int a, int b) { return int2(sumSquares(a, b), later(a - b)); }

Stats gather(int n)
{
    Stats s;
    s.minimum = In[0];
    s.maximum = In[0];
    s.total = 0;
    for (int i = 0; i < n; i++)
    {
        s.minimum = min(s.minimum, In[i]);
        s.maximum = max(s.maximum, In[i]);
        s.total += In[i];
    }
    return s;
}

int later(int x) { return square(x) - 1; }

[numthreads(1, 1, 1)]
void main()
{
    int2 r = both(3, 4);
    Out[0] = r.x;
    Out[1] = r.y;
    Stats s = gather(5);
    Out[2] = s.minimum;
    Out[3] = s.maximum;
    Out[4] = s.total;
    Out[5] = gather(2).total + sumSquares(1, later(2));
}
