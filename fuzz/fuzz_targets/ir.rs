//! Any bytes: building the IR never panics, and whatever builds prints, serializes, and reads
//! back into the same IR.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(words) = spvkit::binary::words_from_bytes(data) else {
        return;
    };
    if let Ok(module) = spvkit::ir::deserialize(&words) {
        let _ = spvkit::ir::print(&module);
        let out = spvkit::ir::serialize(&module).expect("what deserializes passes ir::check");
        let again = spvkit::ir::deserialize(&out).expect("serialized IR reads back");
        assert!(again == module, "the IR changed in a round trip");
    }
});
