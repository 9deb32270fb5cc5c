//! The HLSL front end: preprocessor, lexer, parser and diagnostic rendering.

use spvkit::hlsl::ast::*;
use spvkit::hlsl::diag::render;
use spvkit::hlsl::{parse, parse_with, Options, Parsed, Profile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Options for a compute shader's `main`.
fn opts() -> Options {
    Options::new("main", "cs_6_0".parse::<Profile>().expect("profile"))
}

/// Parses `src` as `test.hlsl` with no includes available.
fn parse_str(src: &str) -> Parsed {
    parse_mem(src, &opts(), &HashMap::new())
}

/// Parses `src` with in-memory include files.
fn parse_mem(src: &str, options: &Options, files: &HashMap<PathBuf, String>) -> Parsed {
    let mut loader = |p: &Path| files.get(p).cloned();
    parse_with("test.hlsl", src, options, &mut loader)
}

/// Parses `src`, which must have no diagnostics.
fn ok(src: &str) -> TranslationUnit {
    let p = parse_str(src);
    assert!(
        p.diagnostics.is_empty(),
        "unexpected diagnostics:\n{}",
        render(&p.diagnostics, &p.sources)
    );
    p.unit
}

/// Every `.hlsl` file under tests/corpus.
fn corpus_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "hlsl") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn corpus_parses_without_errors() {
    let files = corpus_files();
    assert!(!files.is_empty());
    let mut failures = String::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("read");
        let p = parse(&f.display().to_string(), &src, &opts());
        if !p.diagnostics.is_empty() {
            failures.push_str(&render(&p.diagnostics, &p.sources));
        }
    }
    assert!(failures.is_empty(), "{failures}");
}
