#version 450
// 32-bit switch statements: fallthrough, nested switch, default in the middle, loops with break/continue.
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Ops { int opcodes[]; };
layout(std430, binding = 1) buffer Stack { int values[64]; int sp; } st;

int evalOp(int op, int a, int b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return b != 0 ? a / b : 0;
    default:
    case -1: return a;
    case 0x7fffffff: return a ^ b;
    case -2147483648: return a & b;
    }
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    int acc = 0;
    for (int pc = 0; pc < 16; ++pc) {
        int op = opcodes[(i + uint(pc)) % 64u];
        switch (op & 3) {
        case 0:
            acc = evalOp(op >> 2, acc, pc);
            break;
        case 1:
            switch (uint(op) >> 30) {
            case 0u: continue;
            case 3u: acc = -acc; break;
            default: break;
            }
            break;
        case 2:
            if (acc > 1000) {
                break;
            }
            acc <<= 1;
            // fall through
        case 3:
            acc += 3;
            break;
        }
        if (acc < -100000) break;
    }
    st.values[i % 64u] = acc;
    atomicAdd(st.sp, 1);
}
