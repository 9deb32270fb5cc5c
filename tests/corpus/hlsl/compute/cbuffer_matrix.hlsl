// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Matrices in a cbuffer: the default (column_major) stores columns, row_major stores rows;
// mul() with both.
cbuffer Transforms : register(b1)
{
    float4x4 model;
    row_major float4x4 view;
};

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = model[1][2];
    Out[1] = view[1][2];
    float4 p = mul(model, float4(1, 0, 0, 0));
    Out[2] = p.y;
    float4 q = mul(float4(0, 1, 0, 0), view);
    Out[3] = q.z;
    float4x4 mv = mul(view, model);
    Out[4] = mv[0][0];
}
