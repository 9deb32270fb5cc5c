//! Any text: assembling never panics; what assembles disassembles and re-assembles to the
//! same words (but the bound: a `!<n>` escape can put an id where no id belongs, which the
//! disassembly then shows as a number, as with SPIRV-Tools).
#![no_main]

use libfuzzer_sys::fuzz_target;
use spvkit::text::{assemble, AssembleOptions, DisassembleOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let opts = AssembleOptions::default();
    // `!<n>` escapes bypass operand checks (e.g. a constant too wide for an odd-width type),
    // so the round trip is only promised for text without them, as with SPIRV-Tools.
    let round_trip = !text.contains('!');
    if let Ok(words) =
        assemble(text, &opts)
            .map_err(|_| ())
            .and_then(|w| if round_trip { Ok(w) } else { Err(()) })
    {
        let raw = DisassembleOptions {
            friendly_names: false,
            ..DisassembleOptions::default()
        };
        let mut bytes = Vec::new();
        // Strings given as `!<n>` words need not be UTF-8; such text cannot be re-assembled.
        let text = spvkit::text::disassemble(&words, &raw, &mut bytes)
            .ok()
            .and_then(|()| String::from_utf8(bytes).ok());
        if let Some(dis) = text {
            let again = assemble(
                &dis,
                &AssembleOptions {
                    preserve_numeric_ids: true,
                    ..opts
                },
            )
            .expect("the disassembly of an assembled module assembles");
            assert_eq!(
                again.len(),
                words.len(),
                "assemble(disassemble(x)) changed the length"
            );
            assert_eq!(
                again[..3],
                words[..3],
                "assemble(disassemble(x)) changed the header"
            );
            assert_eq!(
                again[4..],
                words[4..],
                "assemble(disassemble(x)) changed the module"
            );
        }
    }
});
