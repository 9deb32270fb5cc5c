// OpenCL 1.x atomics on global integers.
__kernel void atomics_legacy(__global int *c, __global uint *u, __global const int *in) {
    int v = in[get_global_id(0)];
    atomic_add(&c[0], v);
    atomic_sub(&c[1], 1);
    atomic_inc(&c[2]);
    atomic_max(&c[3], v);
    atomic_min(&c[4], v);
    atomic_or(&u[0], 1u << (v & 31));
    atomic_and(&u[1], ~(1u << (v & 7)));
    atomic_xor(&u[2], (uint)v);
    atom_add(&u[3], 2u);
    atomic_max(&u[4], (uint)v);
}
