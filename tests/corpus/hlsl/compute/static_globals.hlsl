// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// static globals (Private storage): initialised once per invocation, mutated by functions;
// static const arrays as lookup tables.
StructuredBuffer<int> In : register(t1);
RWStructuredBuffer<int> Out : register(u0);

static int counter = 5;
static const int table[5] = { 2, 3, 5, 7, 11 };
static float3 accum;
static const float kScale = 0.5;

void tick(int by)
{
    counter += by;
}

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    tick(In[id.x]);
    tick(1);
    accum = float3(1, 2, 3) * kScale;
    Out[id.x] = counter * 100 + table[id.x + 1] + (int)(accum.z * 2.0);
}
