// OpenCL 2.0 C11-style atomics with explicit memory orders and scopes; atomic_flag.
__kernel void c11_atomics(__global atomic_int *counter, __global atomic_uint *bits,
                          __global atomic_float *fsum, __global atomic_flag *lock,
                          __global int *out) {
    int gid = (int)get_global_id(0);
    atomic_fetch_add(counter, 1);
    atomic_fetch_add_explicit(counter, 2, memory_order_relaxed);
    atomic_fetch_sub_explicit(counter, 1, memory_order_acq_rel, memory_scope_device);
    atomic_fetch_or_explicit(bits, 1u << (gid & 31), memory_order_release, memory_scope_work_group);
    atomic_fetch_and_explicit(bits, ~0u, memory_order_acquire, memory_scope_all_svm_devices);
    atomic_fetch_xor(bits, (uint)gid);
    atomic_fetch_min_explicit(counter, -gid, memory_order_seq_cst, memory_scope_device);
    atomic_fetch_max(counter, gid);
    int expected = 0;
    bool swapped = atomic_compare_exchange_strong_explicit(counter, &expected, gid,
                                                          memory_order_acq_rel, memory_order_relaxed,
                                                          memory_scope_device);
    expected = gid;
    atomic_compare_exchange_weak(counter, &expected, gid + 1);
    int old = atomic_exchange_explicit(counter, 42, memory_order_seq_cst);
    atomic_store_explicit(fsum, 1.0f, memory_order_release, memory_scope_device);
    float f = atomic_load_explicit(fsum, memory_order_acquire);
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device)) {
    }
    out[gid] = old + (swapped ? 1 : 0) + (int)f + atomic_load(counter);
    atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
    atomic_init(counter, 0);
}
