// ARGS: -T vs_6_0 -E main
// GLSLANG: same
// An entry point with out parameters instead of a returned struct, and a helper with
// out/inout parameters.
void project(float3 p, out float4 clip, inout float depth)
{
    clip = float4(p.xy, p.z * 0.5, 1);
    depth = max(depth, p.z);
}

void main(float3 pos : POSITION, out float4 clip : SV_Position, out float depth : DEPTH)
{
    depth = 0;
    project(pos, clip, depth);
}
