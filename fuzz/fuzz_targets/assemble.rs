//! Any text: assembling never panics; what assembles disassembles and re-assembles to the
//! same words (but the bound: a `!<n>` escape can put an id where no id belongs, which the
//! disassembly then shows as a number, as with SPIRV-Tools).
#![no_main]

use libfuzzer_sys::fuzz_target;
use spvkit::text::{assemble, disassemble_to_string, AssembleOptions, DisassembleOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let opts = AssembleOptions::default();
    if let Ok(words) = assemble(text, &opts) {
        let raw = DisassembleOptions { friendly_names: false, ..DisassembleOptions::default() };
        if let Ok(dis) = disassemble_to_string(&words, &raw) {
            let again = assemble(&dis, &AssembleOptions { preserve_numeric_ids: true, ..opts })
                .expect("the disassembly of an assembled module assembles");
            assert_eq!(again.len(), words.len(), "assemble(disassemble(x)) changed the length");
            assert_eq!(again[..3], words[..3], "assemble(disassemble(x)) changed the header");
            assert_eq!(again[4..], words[4..], "assemble(disassemble(x)) changed the module");
        }
    }
});
