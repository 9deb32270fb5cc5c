// valid: no
// (llvm-spirv 15 passes DebugInfoNone as DebugSource Text; spirv-val 2023.1 requires an OpString)
// args: -debug-info-kind=line-tables-only -dwarf-version=4
// llvm-spirv: --spirv-max-version=1.1 --spirv-debug-info-version=ocl-100
// target-env: spv1.1
// Line-table-only debug info in OpenCL.DebugInfo.100 (no composite types).
float smooth(float a, float b, float t) {
    float u = t * t * (3.0f - 2.0f * t);
    return a + (b - a) * u;
}

__kernel void ramp(__global float *out, int n) {
    int i = (int)get_global_id(0);
    float t = (float)i / (float)n;
    out[i] = smooth(0.0f, 1.0f, t);
}
