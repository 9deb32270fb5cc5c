//! The disassembler over the whole corpus against SPIRV-Tools 2023.1: `disassemble` equals
//! `spirv-dis` in friendly-name and raw-id modes (the assembler's corpus comparison is in
//! `tests/asm.rs`).

#[path = "support/corpus.rs"]
mod corpus;

use spvkit::binary::words_from_bytes;
use spvkit::text::{disassemble_to_string, DisassembleOptions};
use std::path::Path;
use std::process::Command;

fn tool(program: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} is needed (bash scripts/setup.sh): {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn spirv_dis(path: &Path, raw: bool) -> String {
    let p = path.to_str().unwrap();
    let args: Vec<&str> = if raw {
        vec!["--raw-id", p, "-o", "-"]
    } else {
        vec![p, "-o", "-"]
    };
    String::from_utf8(tool("spirv-dis", &args)).unwrap()
}

#[test]
fn disassembly_equals_spirv_dis_on_the_corpus() {
    let modules = corpus::build_all();
    let mut failures = Vec::new();
    let mut compared = 0;
    for m in &modules {
        let bytes = std::fs::read(&m.path).unwrap();
        let words = words_from_bytes(&bytes).unwrap();
        for raw in [false, true] {
            let opts = DisassembleOptions {
                friendly_names: !raw,
                ..DisassembleOptions::default()
            };
            let ours =
                disassemble_to_string(&words, &opts).unwrap_or_else(|e| format!("error: {e}"));
            let theirs = spirv_dis(&m.path, raw);
            if ours != theirs {
                let line = ours
                    .lines()
                    .zip(theirs.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                failures.push(format!(
                    "{} (raw ids: {raw}) differs at line {}:\n  ours:   {:?}\n  theirs: {:?}",
                    m.name,
                    line + 1,
                    ours.lines().nth(line),
                    theirs.lines().nth(line)
                ));
            }
            compared += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{}/{compared} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared >= 400, "only {compared} comparisons");
}
