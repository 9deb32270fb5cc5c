// ARGS: -T cs_6_0 -E main
// GLSLANG: fails: glslang cannot keep resources in local structs
// Structs that hold resources: methods reading through `this` (a base's buffer from a
// derived struct's method, a nested struct's method), a method that changes which buffer its
// object holds, a function returning such a struct, and an `inout` parameter of one.
StructuredBuffer<int> Small : register(t0);
StructuredBuffer<int> Large : register(t1);
RWStructuredBuffer<int> Out : register(u2);

struct Source
{
    StructuredBuffer<int> data;
    int bias;
    int at(uint i)
    {
        return data[i] + bias;
    }
    void useSmall()
    {
        data = Small;
    }
};

struct Scaled : Source
{
    int scale;
    int scaledAt(uint i)
    {
        return at(i) * scale;
    }
};

struct Pair
{
    Source first;
    Source second;
    int sumAt(uint i)
    {
        return first.at(i) + second.at(i);
    }
};

Source makeSource(int bias)
{
    Source s;
    s.data = Large;
    s.bias = bias;
    return s;
}

void swapIn(inout Source s)
{
    s.useSmall();
    s.bias += 1;
}

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint i = id.x;
    Scaled a;
    a.data = Small;
    a.bias = 10;
    a.scale = 3;
    Out[i] = a.scaledAt(i);
    Pair p;
    p.first = makeSource(100);
    p.second.data = Small;
    p.second.bias = 0;
    Out[4 + i] = p.sumAt(i);
    Source s = makeSource(-1);
    int before = s.at(i);
    swapIn(s);
    Out[8 + i] = before * 1000 + s.at(i);
}
