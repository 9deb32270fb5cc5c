#version 450
// Specialization constants: an int, a float, a bool, a uint used in a constant expression
// (SpecConstantOp), and the workgroup size x (LocalSizeId through local_size_x_id).
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WG = 2u;
layout(constant_id = 1) const int K = 1;
layout(constant_id = 2) const float F = 1.0;
layout(constant_id = 3) const bool NEG = false;
layout(constant_id = 4) const uint SHIFT = 0u;
const uint MASK = (1u << SHIFT) - 1u;
layout(std430, binding = 0) buffer Out { float r[]; };
layout(std430, binding = 1) buffer OutI { uint u[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = float(int(i) * K) * F;
    r[i] = NEG ? -v : v;
    u[i] = (i & MASK) | (gl_WorkGroupSize.x << 16) | (gl_WorkGroupID.x << 24);
}
