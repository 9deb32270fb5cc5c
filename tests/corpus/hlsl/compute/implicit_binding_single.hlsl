// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// A resource without register() or [[vk::binding]] gets the next free binding: 0 in set 0.
RWStructuredBuffer<uint> Out;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Out[id.x] = id.x * id.x + 1;
}
