// OpenCL 2.0 atomics: fetch_add with explicit order and scope, load and store.
__kernel void atomics_c11(__global atomic_int *counter, __global atomic_uint *flags, __global int *out) {
    int old = atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_or(flags, 1u << (old & 31));
    out[get_global_id(0)] = old >= 0;
    if (get_global_id(0) == 0) atomic_store(&counter[1], 7);
}
