// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Overloads chosen by argument types and counts: exact matches, int literal to int, float
// literal to float, vector overloads, and a promotion from int to float when no int overload
// exists.
RWStructuredBuffer<float> Out : register(u0);

float pick(int x) { return 1.0; }
float pick(uint x) { return 2.0; }
float pick(float x) { return 3.0; }
float pick(float2 x) { return 4.0; }
float pick(int a, int b) { return 5.0; }
float pick(float3 a, float b) { return 6.0; }

float onlyFloat(float x) { return x * 0.5; }

[numthreads(1, 1, 1)]
void main()
{
    int i = 1;
    uint u = 1;
    float f = 1.0;
    Out[0] = pick(i);
    Out[1] = pick(u);
    Out[2] = pick(f);
    Out[3] = pick(float2(1, 2));
    Out[4] = pick(i, 2);
    Out[5] = pick(float3(1, 2, 3), 4.0);
    Out[6] = pick(7 + i);
    Out[7] = pick(2.5);
    Out[8] = onlyFloat(i + 2);
}
