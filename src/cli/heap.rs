//! glibc heap tuning for `spvkit lower`, which holds a whole large module and whose peak
//! memory is its main cost after time. Elsewhere (other C libraries), nothing.

/// Keeps large allocations (128 KiB and up) in their own mappings, given back to the system
/// when freed. glibc otherwise raises that threshold to the largest block freed so far (the
/// input's words, 12 MB), after which LLVM's bitcode writer grows its tables on the heap,
/// where what it frees stays resident: 7 MB more at the peak of lowering a 12.7 MB module.
/// Set from the start (it also keeps the decoder's large blocks out of the heap), where
/// setting it just before the writing leaves the peak 3 MB higher; it costs about 3% of the
/// time.
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
