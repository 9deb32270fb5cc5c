//! `spvkit from-llvm` on near-miss LLVM IR: deterministic mutants of every corpus kernel's
//! LLVM text (clang-15's bitcode through `llvm-dis-19`): a dropped, swapped or duplicated
//! instruction, a changed integer width, constant, address space or callee. Whatever LLVM's
//! parser accepts, from-llvm either writes SPIR-V that spirv-val accepts or refuses with an
//! error; it never crashes.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/mutate.rs"]
mod mutate;
#[path = "support/opencl.rs"]
mod opencl;

use mutate::Rng;
use opencl::{kernels, run};
use std::path::Path;
use std::process::Command;

/// Mutants per kernel.
const MUTANTS: u64 = 12;

/// One mutation of the module text `ll`, or `None` when the chosen one does not apply.
fn mutate(ll: &str, rng: &mut Rng) -> Option<String> {
    let mut lines: Vec<String> = ll.lines().map(str::to_owned).collect();
    // Instruction lines: indented, inside a function body.
    let body: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("  ") && !l.trim_start().starts_with(';'))
        .map(|(i, _)| i)
        .collect();
    if body.is_empty() {
        return None;
    }
    let at = body[rng.below(body.len())];
    match rng.below(7) {
        0 => {
            lines.remove(at);
        }
        1 => {
            let other = body[rng.below(body.len())];
            lines.swap(at, other);
        }
        2 => {
            let l = lines[at].clone();
            lines.insert(at, l);
        }
        3 => {
            let (from, to) = [
                ("i32", "i64"),
                ("i64", "i32"),
                ("float", "double"),
                ("i8", "i16"),
            ][rng.below(4)];
            if !lines[at].contains(from) {
                return None;
            }
            lines[at] = lines[at].replacen(from, to, 1);
        }
        4 => {
            let l = &lines[at];
            let pos: Vec<usize> = l
                .match_indices(|c: char| c.is_ascii_digit())
                .map(|(i, _)| i)
                .filter(|&i| i > 0 && l.as_bytes()[i - 1] == b' ')
                .collect();
            if pos.is_empty() {
                return None;
            }
            let p = pos[rng.below(pos.len())];
            let mut l = l.clone();
            l.replace_range(p..p + 1, ["0", "1", "3", "7", "255"][rng.below(5)]);
            lines[at] = l;
        }
        5 => {
            let l = &lines[at];
            let p = l.find("addrspace(")?;
            let mut l = l.clone();
            let d = p + "addrspace(".len();
            l.replace_range(d..d + 1, ["0", "1", "2", "3", "4"][rng.below(5)]);
            lines[at] = l;
        }
        _ => {
            // Another callee of the module in place of this call's.
            let callees: Vec<String> = lines
                .iter()
                .filter_map(|l| l.strip_prefix("declare "))
                .filter_map(|l| l.split('@').nth(1))
                .filter_map(|l| l.split('(').next())
                .map(str::to_owned)
                .collect();
            let l = &lines[at];
            let p = l.find(" @")?;
            if callees.is_empty() || !l.contains("call ") {
                return None;
            }
            let end = l[p + 2..].find('(').map(|e| p + 2 + e)?;
            let mut l = l.clone();
            l.replace_range(p + 2..end, &callees[rng.below(callees.len())]);
            lines[at] = l;
        }
    }
    Some(lines.join("\n"))
}

#[test]
fn near_miss_llvm_ir_never_crashes_from_llvm() {
    let (mut parsed, mut valid, mut refused) = (0, 0, 0);
    let mut failures = Vec::new();
    for k in kernels() {
        let ll = k.bitcode.with_extension("dis.ll");
        run(Command::new("llvm-dis-19")
            .arg(&k.bitcode)
            .arg("-o")
            .arg(&ll))
        .unwrap();
        let text = std::fs::read_to_string(&ll).unwrap();
        for n in 0..MUTANTS {
            let mut rng = Rng::new(&k.name, n);
            let Some(m) = mutate(&text, &mut rng) else {
                continue;
            };
            let path = ll.with_extension(format!("m{n}.ll"));
            std::fs::write(&path, m).unwrap();
            match check(&path) {
                Ok(None) => {}
                Ok(Some(true)) => {
                    parsed += 1;
                    valid += 1;
                }
                Ok(Some(false)) => {
                    parsed += 1;
                    refused += 1;
                }
                Err(e) => failures.push(e),
            }
        }
    }
    eprintln!(
        "{parsed} mutants LLVM parsed: {valid} translated to valid SPIR-V, {refused} refused"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(parsed > 50, "too few mutants reached the translation");
}

/// `None`: LLVM rejects the text; `Some(valid)`: translated (true) or refused (false).
fn check(ll: &Path) -> Result<Option<bool>, String> {
    let spv = ll.with_extension("spv");
    let out = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .arg("from-llvm")
        .arg(ll)
        .arg("-o")
        .arg(&spv)
        .output()
        .expect("spvkit runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    match out.status.code() {
        Some(0) => {
            let val = Command::new("spirv-val")
                .args(["--target-env", "opencl2.0"])
                .arg(&spv)
                .output()
                .expect("spirv-val runs");
            if val.status.success() {
                Ok(Some(true))
            } else {
                Err(format!(
                    "{}: invalid SPIR-V: {}",
                    ll.display(),
                    String::from_utf8_lossy(&val.stderr)
                ))
            }
        }
        Some(1) if stderr.contains("cannot read LLVM module") => Ok(None),
        Some(1) => Ok(Some(false)),
        code => Err(format!("{}: crashed ({code:?}): {stderr}", ll.display())),
    }
}
