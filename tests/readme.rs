//! Every Rust example of the README is a doctest: each appears, line for line, in the crate
//! root's documentation (`src/lib.rs`), where hidden lines give it its inputs and
//! `cargo test --doc` compiles and runs it.

use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// The ```rust blocks of a Markdown text, each as its lines.
fn rust_blocks(md: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut cur: Option<Vec<String>> = None;
    for line in md.lines() {
        match &mut cur {
            None if line.trim_start().starts_with("```rust") => cur = Some(Vec::new()),
            Some(b) if line.trim_start().starts_with("```") => {
                blocks.push(std::mem::take(b));
                cur = None;
            }
            Some(b) => b.push(line.to_owned()),
            None => {}
        }
    }
    blocks
}

#[test]
fn readme_rust_examples_are_crate_doctests() {
    let readme = rust_blocks(&read("README.md"));
    assert!(
        readme.len() >= 4,
        "the README's Rust examples: {}",
        readme.len()
    );
    // The crate root's doc text, without `//! ` and without hidden (`# `) lines.
    let doc: Vec<String> = read("src/lib.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_owned())
        .filter(|l| !l.starts_with("# ") && l != "#")
        .collect();
    for block in &readme {
        let found = doc.windows(block.len()).any(|w| w == block.as_slice());
        assert!(
            found,
            "a README example is not in src/lib.rs's documentation:\n{}",
            block.join("\n")
        );
    }
}
