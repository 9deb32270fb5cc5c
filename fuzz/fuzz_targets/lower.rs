//! Any bytes: the lowering to LLVM never panics nor crashes LLVM; what it accepts passes the
//! LLVM verifier (it verifies inside `lower`, so Ok means verified).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(words) = spvkit::binary::words_from_bytes(data) else {
        return;
    };
    let cx = inkwell::context::Context::create();
    let result = spvkit::lower::lower_binary(&cx, &words, &Default::default());
    if let Ok(lowered) = &result {
        assert!(
            lowered.module.verify().is_ok(),
            "an unverified module came out"
        );
    }
    drop(result);
});
