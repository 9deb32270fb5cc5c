//! glibc heap tuning for the commands that hold a whole large module (`lower`, `from-llvm`),
//! whose peak memory is their main cost after time. Elsewhere (other C libraries), nothing.

/// Keeps large allocations (128 KiB and up) in their own mappings, given back to the system
/// when freed. glibc otherwise raises that threshold to the largest block freed so far (the
/// input's words, 12 MB), after which LLVM's bitcode writer grows its tables on the heap,
/// where what it frees stays resident: 7 MB more at the peak of lowering a 12.7 MB module.
pub fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
        extern "C" {
            fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
        }
        // SAFETY: glibc's mallopt only changes a tuning parameter; 128 KiB is its default.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 128 * 1024);
        }
    }
}

/// Gives the heap's free pages back to the system. glibc keeps what the IR freed during the
/// lowering resident in holes between live blocks (12 MB of the 12.7 MB benchmark module's
/// 163 MB); the bitcode writer then allocates anew.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: glibc's malloc_trim only releases free memory; it has no preconditions.
        unsafe {
            malloc_trim(0);
        }
    }
}
