//! Any bytes: decoding never panics, and whatever decodes re-encodes to the same words.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(words) = spvkit::binary::words_from_bytes(data) else {
        return;
    };
    if let Ok((header, insts)) = spvkit::binary::decode_module(&words) {
        let again =
            spvkit::binary::encode_module(&header, &insts).expect("decoded instructions fit");
        assert_eq!(&again[..], &words[..], "re-encoding changed the module");
    }
});
