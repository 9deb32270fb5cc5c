// args: -O2
// Same switch shapes at -O2 (LLVM turns some into lookup tables / phi-heavy control flow).
int dense(uint op, int a, int b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / (b | 1);
    case 5: return a << (b & 31);
    case 8: return a | b;
    case 9: return a ^ b;
    default: return 0;
    }
}

__kernel void switches(__global const uint *ops, __global const long *keys, __global int *out) {
    size_t i = get_global_id(0);
    int r = dense(ops[i], (int)i, out[i]);
    switch (keys[i]) {
    case -5L: r += 1; break;
    case 1L << 40: r += 2; break;
    case 3: r -= 4; break;
    }
    out[i] = r;
}
