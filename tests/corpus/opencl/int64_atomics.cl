// target-env: spv1.0
// (Int64Atomics is rejected by spirv-val in the opencl2.0 env; it is fine in the universal env)
// 64-bit atomics (cl_khr_int64_base_atomics / extended) and C11 atomic_long.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomics64(volatile __global long *c, volatile __global ulong *u, __global atomic_long *al) {
    long gid = (long)get_global_id(0);
    atom_add(&c[0], gid);
    atom_sub(&c[1], gid);
    atom_xchg(&c[2], gid);
    atom_cmpxchg(&c[3], 0L, gid);
    atom_min(&c[4], -gid);
    atom_max(&u[0], (ulong)gid << 40);
    atom_and(&u[1], ~(1UL << (gid & 63)));
    atom_or(&u[2], 1UL << (gid & 63));
    atom_xor(&u[3], (ulong)gid);
    atom_inc(&c[5]);
    atomic_fetch_add_explicit(al, gid, memory_order_relaxed, memory_scope_device);
}
