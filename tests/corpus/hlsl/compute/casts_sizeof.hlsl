// ARGS: -T cs_6_0 -E main
// GLSLANG: fails: glslang rejects `return f()` in a void function and has no sizeof
// sizeof as C packs (structs rounded to their alignment), DXC's flat conversions between
// vectors, structs and arrays, matrix truncation to one column or one row, a vector and a
// matrix of as many elements in one operation, a 64-bit and a float switch selector, a const
// local sizing an array, a method of a temporary, `return f()` in a void function, `(void)x`,
// an anonymous local struct, a static initializer calling a function, `vk::*Scope`.
struct Pair { float a; float3 b; };
struct Wide { uint64_t x; int y; };
struct Holder { float4 v; };
struct Counter {
    uint n;
    uint inc() { n += 1; return n; }
};
StructuredBuffer<float> In : register(t1);
RWStructuredBuffer<float> Out : register(u0);

Counter make() { Counter c; c.n = 41; return c; }
float initValue() { return 6.5; }
static const float kInit = initValue();
void bump(inout uint x) { x += 10; }
void bumpTwice(inout uint x) { bump(x); return bump(x); }

[numthreads(1, 1, 1)]
void main()
{
    float4 v = float4(In[0], In[1], In[2], In[3]);
    Out[0] = sizeof(Pair);
    Out[1] = sizeof(Wide);
    Out[2] = sizeof(float3[2]);
    Out[3] = sizeof(v);
    Pair p = (Pair)v;
    Out[4] = p.a * 1000 + p.b.x * 100 + p.b.y * 10 + p.b.z;
    float arr[4] = (float[4])p;
    Out[5] = arr[3] - arr[0];
    Holder h = (Holder)v;
    Out[6] = h.v.y;
    float3x4 m = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    float3x1 col = (float3x1)m;
    float1x3 row = (float1x3)m;
    Out[7] = col.x * 100 + col.y * 10 + col.z;
    Out[8] = row.x * 100 + row.y * 10 + row.z;
    float4 flat = float2x2(v.wzyx);
    Out[9] = flat.x * 1000 + flat.y * 100 + flat.z * 10 + flat.w;
    const uint n = 2 + 1;
    float local[n];
    Out[10] = sizeof(local);
    uint64_t big = (uint64_t)In[4] * 4294967296 + 5;
    uint r = 0;
    switch (big) {
    case 5: r = 1; break;
    case 4294967301: r = 2; break;
    default: r = 3; break;
    }
    Out[11] = r;
    float fs = In[5];
    switch (fs) {
    case 2: r = 20; break;
    default: r = 30; break;
    }
    Out[12] = r;
    float4 q = v * float2x2(1, 1, 2, 2);
    Out[13] = q.z + q.w;
    float2x2 mm = float2x2(1, 1, 2, 2) * v;
    Out[14] = mm._m10 * 10 + mm._m11;
    struct { int q; float w; } anon;
    anon.q = 7;
    anon.w = 0.5;
    Out[15] = anon.q + anon.w;
    Out[16] = sizeof(anon);
    Out[17] = make().inc();
    Out[18] = kInit;
    uint t = 1;
    bumpTwice(t);
    (void)t;
    Out[19] = t;
    Out[20] = vk::WorkgroupScope;
}
