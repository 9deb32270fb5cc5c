// A private array indexed at run time (an alloca at -O0).
// args: -O0
__kernel void private_array(__global const int *in, __global int *out) {
    int tab[8];
    size_t g = get_global_id(0);
    for (int k = 0; k < 8; k++) tab[k] = k * k + in[g];
    out[g] = tab[in[g] & 7];
}
