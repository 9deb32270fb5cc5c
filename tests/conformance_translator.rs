//! SPIRV-LLVM-Translator's own test suite (`../shared/conformance/spirv-llvm-translator`, its
//! `manifest.json`) as spvkit's conformance test, both directions:
//!
//! - forward (LLVM → SPIR-V): every `fwd` test's input (`.ll` through `llvm-as-19`, `.cl`
//!   through `clang-15 -cc1` with the test's options) through `spvkit from-llvm
//!   --allow-imports`, the translator's default of importing what a module only declares, with
//!   `--spirv-max-version` as the target environment; the output must pass `spirv-val` (as the
//!   test runs it) wherever the 2024 translator's output for the same input and flags does,
//!   import no builtin, and never crash;
//! - reverse (SPIR-V → LLVM): every `rev` test's module (`.spvasm` through `spirv-as`, `.spt`
//!   through `llvm-spirv-15 -to-binary`, or the newer `dpcpp-llvm-spirv` where that cannot read
//!   it) through `spvkit lower` in both styles.
//!
//! Counts ratchet: the minimums below may rise and never fall. Inputs the oracles cannot
//! read (LLVM syntax newer than 19, SPIR-V newer than SPIRV-Tools 2023.1) are counted apart.
#![cfg(all(feature = "cli", feature = "llvm"))]

#[path = "support/suite.rs"]
mod suite;

use spvkit::from_llvm::mangle::demangle;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use suite::{parallel, strs};

const SUITE: &str = "../shared/conformance/spirv-llvm-translator";

/// Forward tests whose output passes spirv-val (of 872; 109 inputs are unreadable by LLVM 19).
const FORWARD_VALID_MIN: usize = 550;
/// Reverse tests `spvkit lower` translates, in either style (of the inputs the oracles read).
const REVERSE_MIN: usize = 112;

fn scratch() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance_translator");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn output(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e} (run scripts/setup.sh)"))
}

fn manifest() -> Vec<serde_json::Value> {
    let path = Path::new(SUITE).join("manifest.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: the translator's suite is read from ../shared",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap()
}

#[derive(Debug, PartialEq)]
enum Forward {
    Unreadable,
    Refused,
    Valid,
    /// spirv-val rejects our output and the translator's (or it writes none).
    InvalidAsTranslator,
    /// spirv-val rejects our output but accepts the translator's.
    InvalidWhereTranslatorValid(String),
    Crash(String),
    ImportedBuiltin(String),
}

/// The names of the functions an output imports, from its disassembly.
fn imported_names(dis: &str) -> Vec<String> {
    dis.lines()
        .filter(|l| l.contains("LinkageAttributes") && l.ends_with("Import"))
        .filter_map(|l| l.split('"').nth(1).map(str::to_owned))
        .collect()
}

/// Whether an imported name is a SPIR-V or OpenCL builtin's, which an import leaves undone.
fn is_builtin_name(name: &str) -> bool {
    let base = demangle(name)
        .filter(|d| !d.nested)
        .map_or(name.to_owned(), |d| d.name);
    ["__spirv_", "__builtin_spirv_", "llvm."]
        .iter()
        .any(|p| base.starts_with(p))
        || [
            "get_",
            "atomic_",
            "sub_group_",
            "work_group_",
            "read_image",
            "write_image",
            "convert_",
            "intel_sub_group",
            "vload",
            "vstore",
        ]
        .iter()
        .any(|p| base.starts_with(p) && name.starts_with("_Z"))
}

/// Whether the 2024 translator, given the test's own `-spirv-*` flags, writes a module for
/// `bc` that passes spirv-val: the bar for an output of ours that spirv-val rejects.
fn translator_valid(e: &serde_json::Value, bc: &Path, base: &Path) -> bool {
    let theirs = base.with_extension("translator.spv");
    let flags: Vec<String> = strs(&e["fwd_flags"])
        .into_iter()
        .filter(|f| f.starts_with("-spirv-") || f.starts_with("--spirv-"))
        .collect();
    let made = output(
        Command::new(newer_translator())
            .args(&flags)
            .arg(bc)
            .arg("-o")
            .arg(&theirs),
    );
    if !made.status.success() {
        return false;
    }
    let mut val = Command::new("spirv-val");
    if let Some(env) = e["val_env"].as_str() {
        val.args(["--target-env", env]);
    }
    output(val.arg(&theirs)).status.success()
}

fn forward(e: &serde_json::Value) -> Forward {
    let file = e["file"].as_str().unwrap();
    let src = Path::new(SUITE).join(file);
    let base = scratch().join(file.replace('/', "_"));
    let bc = base.with_extension("bc");
    let made = if e["kind"] == "cl" {
        let opts: Vec<String> = strs(&e["clang_opts"])
            .into_iter()
            .filter(|o| o != "-emit-llvm-bc")
            .collect();
        output(
            Command::new("clang-15")
                .arg("-cc1")
                .args(&opts)
                .arg("-emit-llvm-bc")
                .arg("-o")
                .arg(&bc)
                .arg(&src),
        )
    } else {
        output(Command::new("llvm-as-19").arg(&src).arg("-o").arg(&bc))
    };
    if !made.status.success() {
        return Forward::Unreadable;
    }
    let mut env = "spv1.6".to_owned();
    for f in strs(&e["fwd_flags"]) {
        if let Some(v) = f.split("spirv-max-version=").nth(1) {
            env = format!("spv{v}");
        }
    }
    let spv = base.with_extension("spv");
    let _ = std::fs::remove_file(&spv);
    let out = output(
        Command::new(env!("CARGO_BIN_EXE_spvkit"))
            .args(["from-llvm", "--allow-imports", "--target-env", &env])
            .arg(&bc)
            .arg("-o")
            .arg(&spv),
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    match out.status.code() {
        Some(0) => {}
        Some(1) if !stderr.contains("panicked") => return Forward::Refused,
        _ => return Forward::Crash(stderr),
    }
    let mut val = Command::new("spirv-val");
    if let Some(env) = e["val_env"].as_str() {
        val.args(["--target-env", env]);
    }
    let v = output(val.arg(&spv));
    if !v.status.success() {
        let ours = String::from_utf8_lossy(&v.stderr).into_owned();
        return match translator_valid(e, &bc, &base) {
            true => Forward::InvalidWhereTranslatorValid(ours),
            false => Forward::InvalidAsTranslator,
        };
    }
    let dis = output(Command::new("spirv-dis").arg(&spv));
    let dis = String::from_utf8_lossy(&dis.stdout);
    if let Some(n) = imported_names(&dis)
        .into_iter()
        .find(|n| is_builtin_name(n))
    {
        return Forward::ImportedBuiltin(n);
    }
    Forward::Valid
}

#[test]
fn forward_llvm_to_spirv() {
    let tests: Vec<serde_json::Value> = manifest()
        .into_iter()
        .filter(|e| e["fwd"] == true)
        .collect();
    let results = parallel(&tests, forward);
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    let mut problems = Vec::new();
    for (e, r) in tests.iter().zip(&results) {
        let file = e["file"].as_str().unwrap();
        let key = match r {
            Forward::Unreadable => "unreadable by LLVM 19",
            Forward::Refused => "refused with an error",
            Forward::Valid => "valid",
            Forward::InvalidAsTranslator => {
                eprintln!("forward invalid, as the translator's output: {file}");
                "invalid, as the translator's"
            }
            Forward::InvalidWhereTranslatorValid(why) => {
                problems.push(format!(
                    "{file}: spirv-val rejects the output, and accepts the translator's:\n{why}"
                ));
                "invalid where the translator's is valid"
            }
            Forward::Crash(why) => {
                problems.push(format!("{file}: from-llvm crashed:\n{why}"));
                "crash"
            }
            Forward::ImportedBuiltin(n) => {
                problems.push(format!("{file}: imports the builtin {n}"));
                "imported builtin"
            }
        };
        *counts.entry(key).or_default() += 1;
    }
    eprintln!(
        "translator suite, forward ({} tests): {counts:?}",
        tests.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let valid = counts.get("valid").copied().unwrap_or(0);
    assert!(
        valid >= FORWARD_VALID_MIN,
        "{valid} forward tests valid, fewer than the ratchet's {FORWARD_VALID_MIN}"
    );
}

#[derive(Debug, PartialEq)]
enum Reverse {
    NoInput,
    Lowered,
    Refused(String),
    Crash(String),
}

/// The newer SPIRV-LLVM-Translator that `scripts/setup.sh` installs from PyPI
/// (`dpcpp-llvm-spirv`); its absence fails the test loudly rather than shrinking the suite.
fn newer_translator() -> &'static Path {
    static PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let out = Command::new("python3")
            .args([
                "-c",
                "import dpcpp_llvm_spirv as d; print(d.get_llvm_spirv_path())",
            ])
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "the reverse suite reads some .spt inputs with dpcpp-llvm-spirv: run \
             scripts/setup.sh (pip install dpcpp-llvm-spirv==2024.2.0)\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
}

fn reverse(e: &serde_json::Value) -> Reverse {
    let file = e["file"].as_str().unwrap();
    let src = Path::new(SUITE).join(file);
    let base = scratch().join(format!("rev_{}", file.replace('/', "_")));
    let spv = base.with_extension("spv");
    let made = if e["kind"] == "spvasm" {
        let mut cmd = Command::new("spirv-as");
        if let Some(env) = e["as_env"].as_str() {
            cmd.args(["--target-env", env]);
        }
        output(cmd.arg(&src).arg("-o").arg(&spv))
    } else {
        let to_binary = |tool: &Path| {
            output(
                Command::new(tool)
                    .arg("-to-binary")
                    .arg(&src)
                    .arg("-o")
                    .arg(&spv),
            )
        };
        let made = to_binary(Path::new("llvm-spirv-15"));
        if made.status.success() {
            made
        } else {
            // Text the 2022 translator cannot read (newer debug-info sets, SPIR-V 1.4
            // headers) goes through the 2024 one.
            to_binary(newer_translator())
        }
    };
    if !made.status.success() {
        return Reverse::NoInput;
    }
    let mut why = Vec::new();
    for style in ["spv-ir", "direct"] {
        let out = output(
            Command::new(env!("CARGO_BIN_EXE_spvkit"))
                .args(["lower", "--style", style])
                .arg(&spv)
                .arg("-o")
                .arg(base.with_extension(format!("{style}.ll"))),
        );
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        match out.status.code() {
            Some(0) => return Reverse::Lowered,
            Some(1) if !stderr.contains("panicked") => why.push(stderr),
            _ => return Reverse::Crash(stderr),
        }
    }
    Reverse::Refused(why.join(""))
}

#[test]
fn reverse_spirv_to_llvm() {
    let tests: Vec<serde_json::Value> = manifest()
        .into_iter()
        .filter(|e| e["rev"] == true)
        .collect();
    let results = parallel(&tests, reverse);
    let (mut inputs, mut lowered, mut problems) = (0, 0, Vec::new());
    for (e, r) in tests.iter().zip(&results) {
        let file = e["file"].as_str().unwrap();
        match r {
            Reverse::NoInput => continue,
            Reverse::Lowered => lowered += 1,
            Reverse::Refused(why) => eprintln!("reverse refused: {file}: {why}"),
            Reverse::Crash(why) => problems.push(format!("{file}: lower crashed:\n{why}")),
        }
        inputs += 1;
    }
    eprintln!(
        "translator suite, reverse: {lowered} of {inputs} lowered ({} tests, {} without an \
         input the oracles can assemble)",
        tests.len(),
        tests.len() - inputs
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        lowered >= REVERSE_MIN,
        "{lowered} reverse tests lowered, fewer than the ratchet's {REVERSE_MIN}"
    );
}
