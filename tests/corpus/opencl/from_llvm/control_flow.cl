// Loops, a switch and phis.
__kernel void control_flow(__global const int *in, __global int *out) {
    size_t g = get_global_id(0);
    int v = in[g];
    int acc = 0;
    for (int k = 0; k < (v & 7); k++) acc += (k ^ v) * (acc | 1);
    switch (v % 5) {
    case 0: acc += 100; break;
    case 1: acc -= 7; break;
    case 2: acc *= 3; break;
    default: acc = -acc;
    }
    while (acc > 1000) acc /= 2;
    out[g] = acc;
}
