// ARGS: -T ps_6_0 -E main
// GLSLANG: same
// Textures of uint4 and int2 element types loaded with Load; an unsigned integer output.
// CHECK: OpTypeImage %{{\w+}} 2D
Texture2D<uint4> ids : register(t0);
Texture2D<int2> offsets : register(t1);

uint4 main(float4 pos : SV_Position) : SV_Target
{
    int2 p = int2(pos.xy) + offsets.Load(int3(pos.xy, 0));
    return ids.Load(int3(p, 0));
}
