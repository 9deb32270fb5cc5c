// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// cross, length, normalize, distance and reflect.
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float3 x = float3(1, 0, 0);
    float3 y = float3(0, 1, 0);
    float3 c = cross(x, y);
    Out[0] = c.z;
    float3 d = cross(float3(1, 2, 3), float3(4, 5, 6));
    Out[1] = d.x;
    Out[2] = d.y;
    Out[3] = d.z;
    Out[4] = length(float2(3, 4));
    float3 n = normalize(float3(0, 3, 4));
    Out[5] = n.y;
    Out[6] = n.z;
    Out[7] = distance(float3(1, 1, 1), float3(3, 4, 7));
    float3 r = reflect(float3(1, -1, 0), float3(0, 1, 0));
    Out[8] = r.x;
    Out[9] = r.y;
    Out[10] = length(-2.5);
}
