#version 450
// C = A * B for N x N row-major matrices (N a multiple of 16, given as a push constant), with
// 16 x 16 tiles staged in shared memory between barriers. The matmul benchmark runs it at 512.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; } pc;
shared float ta[16][16];
shared float tb[16][16];
void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    uint lx = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint t = 0u; t < pc.n; t += 16u) {
        ta[ly][lx] = a[row * pc.n + t + lx];
        tb[ly][lx] = b[(t + ly) * pc.n + col];
        barrier();
        for (uint k = 0u; k < 16u; k++) {
            precise float p = ta[ly][k] * tb[k][lx];
            acc = acc + p;
        }
        barrier();
    }
    c[row * pc.n + col] = acc;
}
