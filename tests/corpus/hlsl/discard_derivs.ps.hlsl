// discard, ddx/ddy (coarse/fine), fwidth, interpolation modifiers.
struct PSIn {
    float4 pos : SV_Position;
    centroid float2 uv : TEXCOORD0;
    noperspective float depth : TEXCOORD1;
    sample float3 world : TEXCOORD2;
    nointerpolation int id : TEXCOORD3;
};

float4 main(PSIn i) : SV_Target {
    float2 fw = fwidth(i.uv);
    float2 grid = abs(frac(i.uv * 16.0 - 0.5) - 0.5) / fw;
    float gridLine = min(grid.x, grid.y);
    if (gridLine > 1.0 && i.id < 0) {
        discard;
    }
    float3 dx = ddx_fine(i.world);
    float3 dy = ddy_coarse(i.world);
    float3 n = normalize(cross(dx, dy));
    float2 c = ddx_coarse(i.uv) + ddy_fine(i.uv) + ddx(i.uv) + ddy(i.uv);
    return float4(n * 0.5 + 0.5, 1.0 - min(gridLine, 1.0)) + float4(c, i.depth, 0) * 0.0;
}
