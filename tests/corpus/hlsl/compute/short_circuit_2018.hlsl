// ARGS: -T cs_6_0 -E main -HV 2018
// GLSLANG: same
// Under -HV 2018 DXC evaluates both sides of &&, || and both arms of ?: (the design document's
// semantics); glslang's HLSL frontend always does.
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
    int e = a ? count(1) : 7;
    Out[3] = calls;
    int f = c ? 8 : count(2);
    Out[4] = calls;
    Out[5] = (int)a + 2 * (int)b + 4 * (int)c + 16 * e + 256 * f;
}
