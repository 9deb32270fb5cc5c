// Float atomics of cl_ext_float_atomics: OpAtomicFAddEXT (sub as the add of the negated
// value), OpAtomicFMinEXT, OpAtomicFMaxEXT. The inputs are small integers, so every order of
// the additions gives the same sums.
// args: -cl-ext=+cl_ext_float_atomics,+__opencl_c_ext_fp32_global_atomic_add,+__opencl_c_ext_fp32_global_atomic_min_max
// llvm-spirv: --spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max
kernel void atomics_float(volatile global atomic_float* acc, global const float* in) {
  size_t i = get_global_id(0);
  float v = in[i];
  atomic_fetch_add_explicit(&acc[0], v, memory_order_relaxed);
  atomic_fetch_sub_explicit(&acc[1], v, memory_order_relaxed);
  atomic_fetch_min_explicit(&acc[2], v, memory_order_relaxed);
  atomic_fetch_max(&acc[3], v);
}
