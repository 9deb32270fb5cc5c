// Raw buffer access: Load/Load2/Load3/Load4/Store*, GetDimensions.
ByteAddressBuffer Src : register(t0);
RWByteAddressBuffer Dst : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint size;
    Src.GetDimensions(size);
    uint offset = id.x * 16;
    if (offset + 16 > size) return;
    uint a = Src.Load(offset);
    uint2 b = Src.Load2(offset + 4);
    uint3 c = Src.Load3(offset);
    uint4 d = Src.Load4(offset);
    Dst.Store(offset, a ^ b.x);
    Dst.Store2(offset + 4, b + c.yz);
    Dst.Store3(offset, c * 2);
    Dst.Store4(offset, d + uint4(asuint(1.0f), 0, 0, 0));
}
