// ARGS: -T cs_6_0 -E main -HV 2021
// GLSLANG: fails: glslang's HLSL front end has no templates
// Templates: a function template with explicit and deduced arguments (one instance per type,
// so int and float twice() differ), a non-type parameter, a struct template with a method and
// a static member, and an alias template.
template<typename T>
T twice(T x)
{
    return x * 2;
}

template<int N>
int scaled(int x)
{
    return x * N;
}

template<typename T, int Size = 3>
struct Stack
{
    T items[Size];
    int count;
    void push(T v)
    {
        items[count] = v;
        count += 1;
    }
    T sum()
    {
        T total = 0;
        for (int i = 0; i < count; i++)
            total += items[i];
        return total;
    }
};

template<typename T>
using Pair = vector<T, 2>;

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = twice<int>(3) / 4;     // 6 / 4 in int: 1
    Out[1] = twice(1.25f);          // deduced float: 2.5
    Out[2] = scaled<5>(7);
    Stack<float> s;
    s.count = 0;
    s.push(1.5);
    s.push(2.0);
    Out[3] = s.sum();
    Stack<int, 2> t;
    t.count = 0;
    t.push(4);
    t.push(5);
    Out[4] = t.sum() / 2;           // 9 / 2 in int: 4
    Pair<float> p = Pair<float>(0.5, 0.25);
    Out[5] = p.x + p.y;
}
