// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// ByteAddressBuffer Load/Load2/Load3/Load4 and RWByteAddressBuffer Store/Store2/Store3/Store4
// at byte offsets, with asfloat/asuint on the words.
ByteAddressBuffer In : register(t1);
RWByteAddressBuffer Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out.Store(0, In.Load(4));
    Out.Store2(8, In.Load2(0));
    Out.Store3(16, In.Load3(8));
    Out.Store4(32, In.Load4(16) + 1);
    float f = asfloat(In.Load(20));
    Out.Store(48, asuint(f * 2.0));
    uint base = 4;
    Out.Store(52, In.Load(base * 3) + Out.Load(0));
    uint2 rw = Out.Load2(8);
    Out.Store2(56, rw.yx);
}
