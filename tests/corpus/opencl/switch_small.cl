// switch on char/short/int selectors with negative cases and a dense jump table.
int from_char(char c) {
    switch (c) {
    case -128: return 0;
    case -1: return 1;
    case 'a': return 2;
    case 127: return 3;
    default: return 4;
    }
}

int from_short(short s) {
    switch (s) {
    case -32768: return 10;
    case 0: return 11;
    case 32767: return 12;
    default: return s > 0 ? 13 : 14;
    }
}

int dense(uint op, int a, int b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / (b | 1);
    case 4: return a % (b | 1);
    case 5: return a << (b & 31);
    case 6: return a >> (b & 31);
    case 7: return a & b;
    case 8: return a | b;
    case 9: return a ^ b;
    case 0xffffffffu: return -a;
    default: return 0;
    }
}

__kernel void switches(__global const char *c, __global const short *s, __global const uint *ops, __global int *out) {
    size_t i = get_global_id(0);
    out[i] = from_char(c[i]) + from_short(s[i]) + dense(ops[i], (int)i, out[i]);
}
