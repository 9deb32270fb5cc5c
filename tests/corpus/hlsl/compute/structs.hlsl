// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Structs: nested structs, arrays in structs, struct copies (value semantics), struct
// initializer lists, and struct elements of a structured buffer.
struct Inner
{
    float2 xy;
    int tag;
};

struct Outer
{
    Inner first;
    Inner pair[2];
    float scale;
};

StructuredBuffer<Inner> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Outer o;
    o.first = In[0];
    o.pair[0] = In[1];
    o.pair[1].xy = float2(5, 6);
    o.pair[1].tag = 9;
    o.scale = 2.0;
    Outer copy = o;
    copy.first.xy.x = 100.0;
    Inner lit = { float2(0.5, 0.25), 3 };
    Out[0] = o.first.xy.x;
    Out[1] = copy.first.xy.x;
    Out[2] = o.pair[0].xy.y * o.scale;
    Out[3] = (float)(o.first.tag + o.pair[0].tag + o.pair[1].tag);
    Out[4] = lit.xy.x + lit.xy.y + lit.tag;
    Out[5] = copy.pair[1].xy.y;
}
