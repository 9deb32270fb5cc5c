//! Any text: preprocessing and parsing HLSL never panics, hangs or overflows the stack; every
//! diagnostic points inside a loaded file and renders.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spvkit::hlsl::{diag, parse_with, Options};
use std::path::Path;

/// One include file, so `#include` paths are reachable.
fn load(path: &Path) -> Option<String> {
    (path.to_str()? == "s.hlsli")
        .then(|| "#pragma once\nstruct S { float4 v; };\ntypedef S T;\n".to_owned())
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = Options::new("main", "ps_6_0".parse().expect("profile"));
    let mut loader = load;
    let parsed = parse_with("fuzz.hlsl", text, &options, &mut loader);
    for d in &parsed.diagnostics {
        let len = parsed.sources.text(d.span.file).len() as u32;
        assert!(d.span.start <= d.span.end && d.span.end <= len, "{d:?}");
        for (s, _) in &d.notes {
            assert!(s.start <= s.end);
        }
    }
    let _ = diag::render(&parsed.diagnostics, &parsed.sources);
});
