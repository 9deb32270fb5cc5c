//! `hlsl2spirv` on near-miss HLSL: deterministic token-level mutants of every corpus shader
//! (a token dropped, doubled or swapped with another, an identifier, type name, operator or
//! number replaced by another of the file's or the language's). Whatever the mutant, the
//! frontend never panics; what it accepts passes spirv-val (no silently invalid output); what
//! it rejects, semantic analysis rejects (code generation meets no language error, which would
//! be an `internal:` one); and in debug builds semantic analysis and code generation agree on
//! every expression's type (an `internal:` error otherwise).

#![cfg(feature = "hlsl")]

#[path = "support/compute.rs"]
#[cfg(feature = "run")]
mod compute;
#[path = "support/hlsl_corpus.rs"]
mod hlsl_corpus;
#[path = "support/mutate.rs"]
mod mutate;

use mutate::Rng;
use spvkit::hlsl;

/// Mutants per corpus shader (a sweep of 300 each, 72,300 in all, passes too: about 80 s in a
/// debug build).
const MUTANTS: u64 = 64;

/// A token of the source: its byte range.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // Comments and preprocessor lines are kept as they are.
        if text[i..].starts_with("//") || c == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                // A number's dot and fraction stay in it; an identifier stops at a dot.
                if b[i] == b'.' && !b[start].is_ascii_digit() {
                    break;
                }
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// Replacements a mutant may put in place of a token.
const WORDS: &[&str] = &[
    "float", "int", "uint", "bool", "half", "double", "float2", "float3", "float4", "int2",
    "uint3", "float4x4", "float2x3", "0", "1", "-1", "2.5", "0u", "true", "+", "-", "*", "/", "%",
    "<<", "&&", "||", "==", "<", "!", "~", "=", "+=", "?", ":", ".x", ".xyzw", "[0]", "(", ")",
    "{", "}", ";", ",", "return", "if", "for", "break", "static", "const",
];

/// One mutation of `text`, or `None` when the chosen one does not apply.
fn mutate(text: &str, rng: &mut Rng) -> Option<String> {
    let toks = tokens(text);
    // Not the header lines (`// ARGS:` ...): they are comments, skipped by `tokens`.
    if toks.len() < 2 {
        return None;
    }
    let k = rng.below(toks.len());
    let (s, e) = toks[k];
    let tok = &text[s..e];
    let replace = |with: &str| format!("{}{with}{}", &text[..s], &text[e..]);
    // Kinds of token that a token of the same kind may replace (likelier to compile).
    const KINDS: &[&[&str]] = &[
        &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"],
        &["<", ">", "<=", ">=", "==", "!="],
        &["&&", "||"],
        &["=", "+=", "-=", "*=", "/="],
        &[
            "float",
            "int",
            "uint",
            "half",
            "double",
            "bool",
            "min16float",
            "int64_t",
        ],
        &[
            "float2", "float3", "float4", "int2", "int3", "uint4", "bool2", "half3",
        ],
        &[
            "0", "1", "2", "3", "7", "-1", "0.5", "2.5", "1e3", "0u", "3u", "0x10", "1.0h",
        ],
    ];
    if rng.below(2) == 0 {
        if let Some(kind) = KINDS.iter().find(|k| k.contains(&tok)) {
            return Some(replace(kind[rng.below(kind.len())]));
        }
        if tok.starts_with(|c: char| c.is_ascii_digit()) {
            let kind = KINDS[KINDS.len() - 1];
            return Some(replace(kind[rng.below(kind.len())]));
        }
    }
    Some(match rng.below(5) {
        0 => replace(""),
        1 => replace(&format!("{tok} {tok}")),
        2 => {
            let (s2, e2) = toks[rng.below(toks.len())];
            let other = text[s2..e2].to_owned();
            replace(&other)
        }
        3 => replace(WORDS[rng.below(WORDS.len())]),
        _ => {
            // Another identifier of the file.
            let idents: Vec<&str> = toks
                .iter()
                .map(|&(a, b)| &text[a..b])
                .filter(|t| t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
                .collect();
            if idents.is_empty() {
                return None;
            }
            replace(idents[rng.below(idents.len())])
        }
    })
}

#[test]
fn near_miss_shaders_never_crash_and_what_compiles_validates() {
    let mut failures = Vec::new();
    let (mut accepted, mut rejected) = (0usize, 0usize);
    for e in hlsl_corpus::load_all() {
        let Ok(opts) = e.args.frontend_options() else {
            continue;
        };
        let name = e.path.display().to_string();
        for n in 0..MUTANTS {
            let mut rng = Rng::new(&e.name, n);
            let Some(src) = mutate(&e.text, &mut rng) else {
                continue;
            };
            let result = std::panic::catch_unwind(|| hlsl::compile_source(&name, &src, &opts));
            match result {
                Err(_) => failures.push(format!("{} mutant {n}: panicked\n{src}", e.name)),
                Ok(Ok(c)) => {
                    accepted += 1;
                    if let Err(v) = hlsl_corpus::spirv_val(&e, &c.words, "mutant") {
                        failures.push(format!("{} mutant {n}: invalid output: {v}\n{src}", e.name));
                    }
                }
                Ok(Err(err)) => {
                    rejected += 1;
                    if err.rendered.contains("internal:") {
                        failures.push(format!("{} mutant {n}: {}\n{src}", e.name, err.rendered));
                    }
                }
            }
        }
    }
    println!("HLSL mutants: {accepted} compiled and validated, {rejected} rejected");
    assert!(accepted > 100 && rejected > 100, "{accepted} {rejected}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
}
