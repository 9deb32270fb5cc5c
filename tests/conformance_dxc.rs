//! DXC's own SPIR-V test suite (`../shared/conformance/dxc`, its `manifest.json`: 1,741 cases
//! of `tools/clang/test/CodeGenSPIRV`, RUN lines parsed) as spvkit's HLSL conformance test.
//!
//! Every case goes through `hlsl2spirv` with its profile, entry, defines, language version,
//! target environment and the flags the manifest keeps (`extra`; DXC-only ones such as
//! `-fcgl` are dropped by the manifest), with `-I` for its includes and the suite's `include/`.
//! A success case passes when the output passes `spirv-val` in the case's environment, with
//! the block-layout rule DXC validates with (relaxed; scalar with `-fvk-use-scalar-layout`;
//! none with `-fvk-use-dx-layout`). An error case passes when `hlsl2spirv` reports an error.
//!
//! Asserted: no crash; no output spirv-val rejects (each printed with its reason); pass
//! counts that may rise and never fall. Printed: the figures by stage
//! and the most frequent refusals, which the README quotes. CHECK lines are not compared yet.
#![cfg(feature = "cli")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

const SUITE: &str = "../shared/conformance/dxc";

/// Success cases whose output passes spirv-val (of 1,507).
const OK_PASS_MIN: usize = 348;
/// Error cases `hlsl2spirv` rejects (of 227 that are errors for spvkit too).
const ERROR_PASS_MIN: usize = 181;
/// Error cases that are DXC's own limits, not errors of the program, each with why.
const DXC_ONLY_ERRORS: &[(&str, &str)] = &[(
    "CodeGenSPIRV/max_id.hlsl#1",
    "DXC's optimizer (loop unrolling) overflows -fspv-max-id; spvkit's unoptimized module fits",
)];

fn scratch() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance_dxc");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn output(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("running {cmd:?}: {e}"))
}

/// Runs `f` on every item on two threads (the machine's cores), keeping the order.
fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let out = Mutex::new(Vec::new());
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    let i = *n;
                    *n += 1;
                    i
                };
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                out.lock().unwrap().push((i, r));
            });
        }
    });
    let mut out = out.into_inner().unwrap();
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

fn strs(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[derive(Debug)]
enum Outcome {
    /// A success case whose output spirv-val accepts, or an error case rejected.
    Pass,
    /// A success case refused: the first error line.
    Refused(String),
    /// A success case whose output spirv-val rejects: its reason.
    Invalid(String),
    /// An error case compiled.
    Accepted,
    /// A panic or a signal.
    Crash(String),
}

/// spirv-val's arguments for a case: its environment and DXC's block-layout rule.
fn val_args(e: &serde_json::Value) -> Vec<String> {
    let env = match e["env"].as_str().unwrap_or("") {
        "" => "vulkan1.0",
        env => env,
    };
    let mut args = vec!["--target-env".to_owned(), env.to_owned()];
    let extra = strs(&e["extra"]);
    if extra.iter().any(|f| f == "-fvk-use-scalar-layout") {
        args.push("--scalar-block-layout".into());
    } else if extra.iter().any(|f| f == "-fvk-use-dx-layout") {
        args.push("--skip-block-layout".into());
    } else if !extra.iter().any(|f| f == "-fvk-use-gl-layout") {
        args.push("--relax-block-layout".into());
    }
    args
}

fn run_case(e: &serde_json::Value) -> Outcome {
    let id = e["id"].as_str().unwrap();
    let src = Path::new(SUITE).join(e["file"].as_str().unwrap());
    let spv = scratch().join(format!("{}.spv", id.replace(['/', '#'], "_")));
    let _ = std::fs::remove_file(&spv);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hlsl2spirv"));
    cmd.arg(&src)
        .args(["-T", e["profile"].as_str().unwrap_or("")])
        .args(["-E", e["entry"].as_str().unwrap_or("main")]);
    for d in strs(&e["defines"]) {
        cmd.arg(format!("-D{d}"));
    }
    for i in strs(&e["includes"]) {
        cmd.arg(format!("-I{i}"));
    }
    cmd.arg(format!("-I{SUITE}/include"));
    if let Some(hv) = e["hv"].as_str().filter(|s| !s.is_empty()) {
        cmd.args(["-HV", hv]);
    }
    if let Some(env) = e["env"].as_str().filter(|s| !s.is_empty()) {
        cmd.arg(format!("-fspv-target-env={env}"));
    }
    cmd.args(strs(&e["extra"])).arg("-Fo").arg(&spv);
    let out = output(&mut cmd);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let expect_error = e["expect"] == "error";
    match out.status.code() {
        Some(0) if expect_error => Outcome::Accepted,
        Some(0) => {
            let v = output(Command::new("spirv-val").args(val_args(e)).arg(&spv));
            if v.status.success() {
                Outcome::Pass
            } else {
                Outcome::Invalid(String::from_utf8_lossy(&v.stderr).trim().to_owned())
            }
        }
        Some(1) | Some(2) if !stderr.contains("panicked") => {
            if expect_error {
                Outcome::Pass
            } else {
                Outcome::Refused(first_error(&stderr))
            }
        }
        _ => Outcome::Crash(stderr),
    }
}

/// The first `error:` line's message, without its place.
fn first_error(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.contains("error:"))
        .unwrap_or_else(|| stderr.lines().next().unwrap_or(""));
    line.split_once("error:")
        .map_or(line, |(_, m)| m)
        .trim()
        .to_owned()
}

/// A refusal's reason with its specifics (names in quotes, numbers) blurred, to count kinds.
fn reason_kind(why: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in why.chars() {
        match c {
            '\'' | '`' | '"' => {
                quoted = !quoted;
                if quoted {
                    out.push_str("'…'");
                }
            }
            _ if quoted => {}
            c if c.is_ascii_digit() => {
                if !out.ends_with('N') {
                    out.push('N');
                }
            }
            c => out.push(c),
        }
    }
    out.chars().take(100).collect()
}

#[test]
fn dxc_spirv_suite() {
    let text = std::fs::read_to_string(Path::new(SUITE).join("manifest.json"))
        .expect("../shared/conformance/dxc/manifest.json");
    let cases: Vec<serde_json::Value> = serde_json::from_str::<Vec<serde_json::Value>>(&text)
        .unwrap()
        .into_iter()
        .filter(|e| e["pp_only"] != true)
        .filter(|e| !DXC_ONLY_ERRORS.iter().any(|(id, _)| e["id"] == *id))
        .collect();
    let results = parallel(&cases, run_case);
    let (mut ok_total, mut ok_pass, mut err_total, mut err_pass) = (0, 0, 0, 0);
    let mut by_stage: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let (mut invalid, mut crashes) = (Vec::new(), Vec::new());
    for (e, r) in cases.iter().zip(&results) {
        let id = e["id"].as_str().unwrap();
        let is_error = e["expect"] == "error";
        if is_error {
            err_total += 1;
        } else {
            ok_total += 1;
            by_stage
                .entry(e["stage"].as_str().unwrap_or("?").to_owned())
                .or_default()
                .0 += 1;
        }
        match r {
            Outcome::Pass if is_error => err_pass += 1,
            Outcome::Pass => {
                ok_pass += 1;
                by_stage
                    .get_mut(e["stage"].as_str().unwrap_or("?"))
                    .unwrap()
                    .1 += 1;
            }
            Outcome::Refused(why) => *reasons.entry(reason_kind(why)).or_default() += 1,
            Outcome::Invalid(why) => invalid.push(format!("{id}: {why}")),
            Outcome::Accepted => eprintln!("error case compiled: {id}"),
            Outcome::Crash(why) => crashes.push(format!("{id}: {why}")),
        }
    }
    eprintln!(
        "DXC suite: success cases {ok_pass} of {ok_total} valid ({:.1}%), error cases \
         {err_pass} of {err_total} rejected, {} invalid outputs, {} crashes",
        100.0 * ok_pass as f64 / ok_total.max(1) as f64,
        invalid.len(),
        crashes.len()
    );
    for (stage, (total, pass)) in &by_stage {
        eprintln!("  {stage}: {pass} of {total}");
    }
    let mut top: Vec<(&String, &usize)> = reasons.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    eprintln!("top refusals of success cases:");
    for (why, n) in top.iter().take(25) {
        eprintln!("  {n:4}  {why}");
    }
    for i in &invalid {
        eprintln!("invalid: {i}");
    }
    assert!(crashes.is_empty(), "crashes:\n{}", crashes.join("\n"));
    assert!(
        invalid.is_empty(),
        "outputs spirv-val rejects:\n{}",
        invalid.join("\n")
    );
    assert!(
        ok_pass >= OK_PASS_MIN,
        "{ok_pass} success cases valid, fewer than the ratchet's {OK_PASS_MIN}"
    );
    assert!(
        err_pass >= ERROR_PASS_MIN,
        "{err_pass} error cases rejected, fewer than the ratchet's {ERROR_PASS_MIN}"
    );
}
