// ARGS: -T ps_6_0 -E main
// ERROR: 9:8: redefinition
// Two structs with the same name.
struct Light
{
    float3 dir;
};

struct Light
{
    float3 color;
};

float4 main() : SV_Target
{
    return 1;
}
