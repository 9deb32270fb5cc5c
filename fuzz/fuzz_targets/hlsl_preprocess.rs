//! Any text: the HLSL preprocessor never panics, hangs or overflows the stack; every token and
//! diagnostic points inside a loaded file, and the diagnostics render.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spvkit::hlsl::{diag, preprocess_with, token::TokenKind, Options};
use std::path::Path;

/// Include files the input can reach: guarded, unguarded, self-including, nested.
fn load(path: &Path) -> Option<String> {
    let text = match path.to_str()? {
        "a.hlsli" => "#pragma once\n#define A(x, ...) x ## __VA_ARGS__\nint a;\n",
        "b.hlsli" => "#include \"a.hlsli\"\n#if defined(B)\nB\n#endif\n",
        "self.hlsli" => "#include \"self.hlsli\"\n",
        "inc/c.hlsli" => "#define C(x) #x\n",
        _ => return None,
    };
    Some(text.to_owned())
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut options = Options::new("main", "cs_6_0".parse().expect("profile"));
    options.defines.push(("B".to_owned(), "b b".to_owned()));
    options.include_dirs.push("inc".into());
    let mut loader = load;
    let (tokens, sources, diags) = preprocess_with("fuzz.hlsl", text, &options, &mut loader);
    assert_eq!(tokens.last().map(|t| t.kind), Some(TokenKind::Eof));
    for t in &tokens {
        let len = sources.text(t.span.file).len() as u32;
        assert!(t.span.start <= t.span.end && t.span.end <= len, "{t:?}");
    }
    for d in &diags {
        let len = sources.text(d.span.file).len() as u32;
        assert!(d.span.start <= d.span.end && d.span.end <= len, "{d:?}");
    }
    let _ = diag::render(&diags, &sources);
});
