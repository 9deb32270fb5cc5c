// ARGS: -T cs_6_2 -E main -enable-16bit-types
// GLSLANG: fails: glslang has no templated Load<T>/Store<T>
// Templated ByteAddressBuffer access as DXC lays values out: a float3, a struct with 16-bit
// halves of one word and a double at its structured-buffer offset, a column-major float2x2,
// 64-bit integers in two words (low first); Store<T> of 16-bit halves keeping the other half;
// `Store(a, v)` with the type deduced from the value.
struct Item {
    float3 p;
    uint16_t a;
    uint16_t b;
    double d;
};
ByteAddressBuffer In : register(t1);
RWByteAddressBuffer Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float3 v = In.Load<float3>(0);
    Out.Store<float3>(0, v * 2);
    Item it = In.Load<Item>(16);
    Out.Store(12, (uint)it.a + (uint)it.b * 1000);
    Out.Store(16, (float)it.d);
    Out.Store<uint16_t>(20, (uint16_t)7);
    Out.Store<uint16_t>(22, (uint16_t)9);
    float2x2 m = In.Load<float2x2>(40);
    Out.Store(24, m._m01);
    int64_t big = In.Load<int64_t>(56);
    Out.Store<int64_t>(28, big + 1);
    float f = In.Load<float>(0) * 4;
    Out.Store(36, f);
}
