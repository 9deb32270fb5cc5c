//! Any bytes: disassembling never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(words) = spvkit::binary::words_from_bytes(data) else {
        return;
    };
    let opts = spvkit::text::DisassembleOptions::default();
    let _ = spvkit::text::disassemble_to_string(&words, &opts);
});
