// All Texture2D sampling methods: Sample, SampleBias, SampleLevel, SampleGrad, SampleCmp, Gather*, Load with offsets.
Texture2D<float4> Tex : register(t0);
Texture2D<float> Depth : register(t1);
Texture2DArray<float4> TexArray : register(t2);
TextureCube<float4> Cube : register(t3);
Texture3D<float4> Volume : register(t4);
SamplerState Samp : register(s0);
SamplerComparisonState CmpSamp : register(s1);

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0, float3 dir : TEXCOORD1) : SV_Target0 {
    float4 c = Tex.Sample(Samp, uv);
    c += Tex.Sample(Samp, uv, int2(1, -1));
    c += Tex.SampleBias(Samp, uv, 0.5);
    c += Tex.SampleLevel(Samp, uv, 2.0, int2(0, 1));
    c += Tex.SampleGrad(Samp, uv, ddx(uv), ddy(uv));
    c += Depth.SampleCmp(CmpSamp, uv, 0.5);
    c += Depth.SampleCmpLevelZero(CmpSamp, uv, 0.5, int2(1, 1));
    c += Tex.Gather(Samp, uv);
    c += Tex.GatherRed(Samp, uv, int2(1, 0));
    c += Tex.GatherGreen(Samp, uv);
    c += Tex.GatherBlue(Samp, uv);
    c += Tex.GatherAlpha(Samp, uv);
    c += Tex.Load(int3(pos.xy, 0), int2(-1, 0));
    c += TexArray.Sample(Samp, float3(uv, 2.0));
    c += Cube.Sample(Samp, dir);
    c += Cube.SampleLevel(Samp, dir, 3.0);
    c += Volume.Sample(Samp, float3(uv, 0.5), int3(0, 1, 0));
    float lod = Tex.CalculateLevelOfDetail(Samp, uv) + Tex.CalculateLevelOfDetailUnclamped(Samp, uv);
    uint w, h, levels;
    Tex.GetDimensions(0, w, h, levels);
    return c + lod + float(w + h + levels);
}
