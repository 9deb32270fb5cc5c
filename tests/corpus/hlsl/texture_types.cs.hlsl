// Every HLSL texture/RW texture type read in a compute shader.
Texture1D<float4> T1 : register(t0);
Texture1DArray<float4> T1A : register(t1);
Texture2D<float4> T2 : register(t2);
Texture2DArray<float4> T2A : register(t3);
Texture3D<float4> T3 : register(t4);
TextureCube<float4> TC : register(t5);
TextureCubeArray<float4> TCA : register(t6);
Texture2DMS<float4> T2MS : register(t7);
Texture2DMSArray<float4> T2MSA : register(t8);
Buffer<float4> TB : register(t9);
RWTexture1D<float4> RW1 : register(u0);
RWTexture1DArray<float4> RW1A : register(u1);
RWTexture2DArray<float4> RW2A : register(u2);
RWTexture3D<float4> RW3 : register(u3);
RWBuffer<uint> RWB : register(u4);
SamplerState Samp : register(s0);

[numthreads(4, 4, 4)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 c = T1.Load(int2(id.x, 0));
    c += T1A.Load(int3(id.xy, 0));
    c += T2.Load(int3(id.xy, 0));
    c += T2A.Load(int4(id, 0));
    c += T3.Load(int4(id, 0));
    c += TC.SampleLevel(Samp, float3(id), 0);
    c += TCA.SampleLevel(Samp, float4(id, 1), 0);
    c += T2MS.Load(int2(id.xy), 1);
    c += T2MSA.Load(int3(id), 0);
    c += TB.Load(id.x);
    uint w, h, d, levels;
    T3.GetDimensions(0, w, h, d, levels);
    c.x += w + h + d + levels;
    RW1[id.x] = c;
    RW1A[id.xy] = c;
    RW2A[id] = c;
    RW3[id] = RW3[id] + c;
    RWB[id.x] = asuint(c.x);
}
