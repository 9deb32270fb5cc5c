// switch statements on 64-bit selectors with negative, huge and sparse case values (OpSwitch with 64-bit literals).
int classify_signed(long k) {
    switch (k) {
    case -9223372036854775807L - 1: return -100;
    case -4294967296L: return -32;
    case -1: return -1;
    case 0: return 0;
    case 1: return 1;
    case 4294967296L: return 32;
    case 0x123456789abcL: return 77;
    case 9223372036854775807L: return 100;
    default: return (int)(k & 7);
    }
}

int classify_unsigned(ulong k) {
    int r = 0;
    switch (k) {
    case 0xffffffffffffffffUL: r = 64; break;
    case 0x100000000UL:
    case 0x100000001UL: r = 33;
    /* fall through */
    case 7: r += 7; break;
    case 0x8000000000000000UL: r = -64; break;
    default: r = -1;
    }
    return r;
}

__kernel void switch64(__global const long *s, __global const ulong *u, __global int *out) {
    size_t i = get_global_id(0);
    out[i] = classify_signed(s[i]) + classify_unsigned(u[i]);
}
