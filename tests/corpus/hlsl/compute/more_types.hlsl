// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// The remaining spellings of scalar, vector and matrix types: dword, vector<T, N>,
// matrix<T, R, C>, bool, uint, int and double matrices (min16float matrices are in
// min_precision_matrix.hlsl).
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    dword d = 7;
    vector<int, 3> iv = vector<int, 3>(1, 2, 3);
    matrix<float, 2, 2> m = float2x2(1, 2, 3, 4);
    bool2x2 bm = bool2x2(true, false, false, true);
    uint2x2 um = uint2x2(5, 6, 7, 8);
    double2x2 dm = double2x2(0.25, 0.5, 0.75, 1.0);
    int3x2 im = int3x2(1, -1, 2, -2, 3, -3);
    Out[0] = (float)d;
    Out[1] = (float)(iv.x + iv.z);
    Out[2] = m[1][0];
    Out[3] = bm[0][0] ? 1.0 : 0.0;
    Out[4] = bm[0][1] ? 1.0 : 0.0;
    Out[5] = (float)(um[1][1] - um[0][0]);
    Out[6] = m[1][1] - m[0][0];
    Out[7] = (float)(dm[1][0] + dm[0][1]);
    Out[8] = (float)(im[2][1] * im[1][0]);
}
