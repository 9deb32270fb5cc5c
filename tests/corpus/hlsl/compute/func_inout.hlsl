// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Parameters: `in` (the default) is a copy the callee may change, `out` is written back,
// `inout` is read and written back; vectors and structs as out parameters.
RWStructuredBuffer<int> Out : register(u0);

struct Pair
{
    int a;
    int b;
};

int consume(int x)
{
    x *= 10;
    return x + 1;
}

void split(int v, out int hi, out int lo)
{
    hi = v / 100;
    lo = v % 100;
}

void twice(inout int v)
{
    v = v * 2;
}

void fill(out int3 v, inout Pair p)
{
    v = int3(p.a, p.b, p.a + p.b);
    p.a = -p.a;
}

void swap(inout int x, inout int y)
{
    int t = x;
    x = y;
    y = t;
}

[numthreads(1, 1, 1)]
void main()
{
    int x = 4;
    int r = consume(x);
    Out[0] = x;
    Out[1] = r;
    int hi, lo;
    split(1234, hi, lo);
    Out[2] = hi;
    Out[3] = lo;
    int t = 21;
    twice(t);
    twice(t);
    Out[4] = t;
    Pair p;
    p.a = 3;
    p.b = 5;
    int3 v;
    fill(v, p);
    Out[5] = v.z;
    Out[6] = p.a;
    int m = 1, n = 2;
    swap(m, n);
    Out[7] = m * 10 + n;
    int arr[2] = { 7, 9 };
    swap(arr[0], arr[1]);
    Out[8] = arr[0];
}
