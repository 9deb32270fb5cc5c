// OpenCL 2.0 generic address space: casts, to_global/to_local/to_private, address space qualifier checks.
int accumulate(int *p, int n) {
    int s = 0;
    for (int i = 0; i < n; ++i) s += p[i];
    return s;
}

void bump(int *p) { *p += 1; }

__kernel void generic_ptrs(__global int *g, __local int *l, __global int *out) {
    int priv[4] = {1, 2, 3, 4};
    size_t lid = get_local_id(0);
    l[lid] = g[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int *gp = lid & 1 ? (int *)g : (int *)l;
    int s = accumulate(gp, 4) + accumulate(priv, 4);
    bump(gp);
    __global int *asGlobal = to_global(gp);
    __local int *asLocal = to_local(gp);
    __private int *asPrivate = to_private((int *)priv);
    if (asGlobal) s += 1;
    if (asLocal) s += 2;
    if (asPrivate) s += *asPrivate;
    out[get_global_id(0)] = s;
}
