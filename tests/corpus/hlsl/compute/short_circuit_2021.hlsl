// ARGS: -T cs_6_0 -E main
// GLSLANG: differs: glslang's HLSL frontend evaluates both sides of &&, || and ?: (the
// -HV 2018 semantics, see short_circuit_2018.hlsl); DXC 2021 short-circuits
// HLSL 2021 (the default): scalar &&, || and ?: evaluate their right side (or unchosen arm)
// only when needed, so the side effects below happen once or not at all.
RWStructuredBuffer<int> Out : register(u0);

static int calls = 0;

bool bump(bool result)
{
    calls += 1;
    return result;
}

int count(int v)
{
    calls += 100;
    return v;
}

[numthreads(1, 1, 1)]
void main()
{
    bool a = false && bump(true);
    Out[0] = calls;
    bool b = true || bump(false);
    Out[1] = calls;
    bool c = true && bump(true);
    Out[2] = calls;
    bool d = false || bump(false);
    Out[3] = calls;
    int e = a ? count(1) : 7;
    Out[4] = calls;
    int f = c ? 8 : count(2);
    Out[5] = calls;
    Out[6] = (int)a + 2 * (int)b + 4 * (int)c + 8 * (int)d + 16 * e + 256 * f;
}
