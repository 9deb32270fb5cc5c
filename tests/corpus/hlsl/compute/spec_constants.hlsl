// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// [[vk::constant_id(N)]] specialization constants of int, float, bool and uint; the job
// overrides ids 0, 1 and 2, and id 3 keeps its default.
[[vk::constant_id(0)]] const int Count = 4;
[[vk::constant_id(1)]] const float Scale = 1.5;
[[vk::constant_id(2)]] const bool Negate = false;
[[vk::constant_id(3)]] const uint Offset = 100;

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float s = 0;
    for (int i = 0; i < Count; i++)
        s += Scale;
    Out[0] = Negate ? -s : s;
    Out[1] = (float)Count;
    Out[2] = (float)Offset;
}
