// ARGS: -T ps_6_0 -E main
// ERROR: 11:5: assign
// Writing a cbuffer member (cbuffer contents are read-only).
cbuffer Params : register(b0)
{
    float4 tint;
};

float4 main() : SV_Target
{
    tint = float4(1, 1, 1, 1);
    return tint;
}
