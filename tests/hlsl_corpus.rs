//! spvkit's HLSL frontend on the HLSL corpus (`tests/corpus/hlsl/`, see
//! `tests/support/hlsl_corpus.rs` for the header format):
//! - every valid shader compiles with `spvkit::hlsl::compile_file` under its `ARGS:` options,
//!   the module passes `spirv-val` for its target environment, and its `CHECK:` patterns match
//!   the `spirv-dis` disassembly in order;
//! - every compute shader runs on lavapipe and (with the `llvm` feature) under `spvkit run`,
//!   and writes exactly its `<stem>.expected.json` buffers (values computed independently by
//!   `tests/corpus/hlsl/tools/expected.py` and checked against glslang + lavapipe by
//!   `tests/hlsl_corpus_oracle.rs`);
//! - every invalid program fails to compile, and each `ERROR: line:col: message` line matches a
//!   rendered diagnostic `file:line:col: error: message` (same place, message containing the
//!   text; ` and ' are treated alike).
//!
//! A table per category is printed; the pass counts must reach the `MIN_*` constants below.
#![cfg(feature = "hlsl")]

#[path = "support/compute.rs"]
#[cfg(feature = "run")]
mod compute;
#[path = "support/hlsl_corpus.rs"]
mod hlsl_corpus;
#[path = "support/vulkan.rs"]
#[cfg(feature = "run")]
mod vulkan;

use hlsl_corpus::{Category, Entry, Glslang};
use spvkit::hlsl;

// The corpus holds 95 compute, 41 vertex and 47 pixel shaders and 58 invalid programs; every
// one passes today, so any regression fails this test.
/// Valid shaders (all categories) that compile.
const MIN_COMPILED: usize = 185;
/// Valid shaders whose module passes spirv-val.
const MIN_VALIDATED: usize = 185;
/// Vertex and pixel shaders whose CHECK patterns all match.
const MIN_CHECKS_MATCHED: usize = 69;
/// Compute shaders whose lavapipe buffers equal the expected ones.
const MIN_LAVAPIPE_CORRECT: usize = 97;
/// Compute shaders whose `spvkit run` buffers equal the expected ones.
const MIN_SPVKIT_RUN_CORRECT: usize = 97;
/// Invalid programs rejected with every expected diagnostic.
const MIN_ERRORS_MATCHED: usize = 58;

/// Compiles one corpus file; an option the frontend rejects (such as an out-of-scope profile)
/// is a failure rendered at 1:1 of the file, where the invalid programs expect it.
fn compile(e: &Entry) -> Result<Vec<u32>, String> {
    let opts = e
        .args
        .frontend_options()
        .map_err(|m| format!("{}:1:1: error: {m}\n", e.path.display()))?;
    hlsl::compile_file(&e.path, &opts)
        .map(|c| c.words)
        .map_err(|err| err.rendered)
}

#[derive(Default)]
struct Row {
    total: usize,
    compiled: usize,
    validated: usize,
    checks_total: usize,
    checks_matched: usize,
    lavapipe: usize,
    spvkit_run: usize,
    errors_matched: usize,
}

#[cfg(feature = "run")]
struct Runners {
    vk: Option<vulkan::Vulkan>,
}

#[cfg(feature = "run")]
impl Runners {
    fn new() -> Runners {
        Runners {
            vk: vulkan::Vulkan::new().ok(),
        }
    }

    /// (lavapipe correct, spvkit run correct), with the reasons of failures.
    fn run(&self, e: &Entry, words: &[u32], notes: &mut Vec<String>) -> (bool, bool) {
        let (job, tolerance, want) = match hlsl_corpus::expect::load(e) {
            Ok(x) => x,
            Err(err) => {
                notes.push(format!("{}: {err}", e.name));
                return (false, false);
            }
        };
        let lavapipe = match &self.vk {
            Some(vk) => match vk.run(words, &job) {
                Ok(got) => {
                    let d = compute::differences(&want, &got, tolerance);
                    if !d.is_empty() {
                        notes.push(format!("{}: lavapipe: {}", e.name, d.join("; ")));
                    }
                    d.is_empty()
                }
                Err(err) => {
                    notes.push(format!("{}: lavapipe: {err}", e.name));
                    false
                }
            },
            None => false,
        };
        let run = match spvkit::run::run_spirv(words, &job, &spvkit::run::RunOptions::default()) {
            Ok(got) => {
                let d = compute::differences(&want, &got, tolerance);
                if !d.is_empty() {
                    notes.push(format!("{}: spvkit run: {}", e.name, d.join("; ")));
                }
                d.is_empty()
            }
            Err(err) => {
                notes.push(format!("{}: spvkit run: {err}", e.name));
                false
            }
        };
        (lavapipe, run)
    }
}

#[test]
fn spvkit_compiles_the_hlsl_corpus() {
    let all = hlsl_corpus::load_all();
    #[cfg(feature = "run")]
    let runners = Runners::new();
    let mut rows: Vec<(Category, Row)> =
        Category::ALL.iter().map(|c| (*c, Row::default())).collect();
    let mut notes = Vec::new();
    for e in &all {
        let row = &mut rows.iter_mut().find(|(c, _)| *c == e.category).unwrap().1;
        row.total += 1;
        let result = compile(e);
        if e.category == Category::Invalid {
            match result {
                Ok(_) => notes.push(format!("{}: compiled, but it is invalid", e.name)),
                Err(rendered) => {
                    let missing = hlsl_corpus::unmatched_errors(e, &rendered);
                    if rendered.contains("internal:") {
                        // Code generation rejected what semantic analysis accepted: a bug.
                        notes.push(format!("{}: internal error:\n{rendered}", e.name));
                    } else if missing.is_empty() {
                        row.errors_matched += 1;
                    } else {
                        notes.push(format!(
                            "{}: no diagnostic for {}; got:\n{}",
                            e.name,
                            missing.join(", "),
                            rendered.trim_end()
                        ));
                    }
                }
            }
            continue;
        }
        let words = match result {
            Ok(w) => w,
            Err(rendered) => {
                notes.push(format!(
                    "{}: {}",
                    e.name,
                    rendered.lines().next().unwrap_or("")
                ));
                continue;
            }
        };
        row.compiled += 1;
        match hlsl_corpus::spirv_val(e, &words, "spvkit") {
            Ok(()) => row.validated += 1,
            Err(err) => notes.push(format!("{}: {err}", e.name)),
        }
        if !e.checks.is_empty() {
            row.checks_total += 1;
            match hlsl_corpus::spirv_dis(e, &words, "spvkit")
                .and_then(|dis| hlsl_corpus::run_checks(&e.checks, &dis))
            {
                Ok(()) => row.checks_matched += 1,
                Err(err) => notes.push(format!("{}: {err}", e.name)),
            }
        }
        #[cfg(feature = "run")]
        if e.category == Category::Compute {
            let (lavapipe, run) = runners.run(e, &words, &mut notes);
            row.lavapipe += usize::from(lavapipe);
            row.spvkit_run += usize::from(run);
        }
    }

    println!("HLSL corpus through spvkit::hlsl");
    println!(
        "{:<9} {:>5} {:>9} {:>10} {:>8} {:>10} {:>11} {:>8}",
        "category", "files", "compiled", "validated", "checks", "lavapipe", "spvkit run", "errors"
    );
    let mut sum = Row::default();
    for (c, r) in &rows {
        let checks = format!("{}/{}", r.checks_matched, r.checks_total);
        let (lavapipe, run, errors) = match c {
            Category::Compute => (
                r.lavapipe.to_string(),
                r.spvkit_run.to_string(),
                "-".to_owned(),
            ),
            Category::Invalid => ("-".to_owned(), "-".to_owned(), r.errors_matched.to_string()),
            _ => ("-".to_owned(), "-".to_owned(), "-".to_owned()),
        };
        println!(
            "{:<9} {:>5} {:>9} {:>10} {:>8} {:>10} {:>11} {:>8}",
            c.dir_name(),
            r.total,
            r.compiled,
            r.validated,
            checks,
            lavapipe,
            run,
            errors
        );
        sum.compiled += r.compiled;
        sum.validated += r.validated;
        sum.checks_matched += r.checks_matched;
        sum.lavapipe += r.lavapipe;
        sum.spvkit_run += r.spvkit_run;
        sum.errors_matched += r.errors_matched;
    }
    #[cfg(not(feature = "llvm"))]
    println!(
        "(compute shaders not run: build with the `llvm` feature for lavapipe and spvkit run)"
    );
    if !notes.is_empty() {
        println!("\nnot passing ({}):", notes.len());
        for n in &notes {
            println!("  {n}");
        }
    }
    // Without LLVM nothing runs, so only the run minima drop to zero.
    let runs = |min: usize| if cfg!(feature = "llvm") { min } else { 0 };
    let minima = [
        ("compiled", sum.compiled, MIN_COMPILED),
        ("validated", sum.validated, MIN_VALIDATED),
        (
            "CHECK patterns matched",
            sum.checks_matched,
            MIN_CHECKS_MATCHED,
        ),
        ("lavapipe correct", sum.lavapipe, runs(MIN_LAVAPIPE_CORRECT)),
        (
            "spvkit run correct",
            sum.spvkit_run,
            runs(MIN_SPVKIT_RUN_CORRECT),
        ),
        (
            "invalid programs with all errors matched",
            sum.errors_matched,
            MIN_ERRORS_MATCHED,
        ),
    ];
    let below: Vec<String> = minima
        .iter()
        .filter(|(_, got, min)| got < min)
        .map(|(what, got, min)| format!("{what}: {got} < {min}"))
        .collect();
    assert!(
        below.is_empty(),
        "below the minimum pass counts: {}",
        below.join(", ")
    );
}

/// glslang and spvkit on the same shaders: for each valid shader both compile and validate,
/// the instruction counts and their ratio (spvkit / glslang), and the overall ratio. Shaders
/// spvkit cannot compile are listed and skipped; nothing is asserted.
#[test]
fn report_instruction_counts_against_glslang() {
    let all = hlsl_corpus::load_all();
    let mut both = Vec::new();
    let mut spvkit_failures = Vec::new();
    for e in all.iter().filter(|e| e.category != Category::Invalid) {
        if matches!(e.glslang, Glslang::Fails(_)) {
            continue;
        }
        let ours = match compile(e) {
            Ok(w) if hlsl_corpus::spirv_val(e, &w, "spvkit").is_ok() => w,
            Ok(_) => {
                spvkit_failures.push(format!("{}: fails spirv-val", e.name));
                continue;
            }
            Err(r) => {
                spvkit_failures.push(format!("{}: {}", e.name, r.lines().next().unwrap_or("")));
                continue;
            }
        };
        let Ok(theirs) = hlsl_corpus::glslang(e) else {
            continue;
        };
        if hlsl_corpus::spirv_val(e, &theirs, "glslang").is_err() {
            continue;
        }
        // What hlsl2spirv writes by default (-O3): the module after `spvkit opt -O`.
        let optimized = spvkit::opt::optimize(
            &ours,
            &spvkit::opt::OptOptions {
                passes: spvkit::opt::PERFORMANCE.to_vec(),
                update_vce: false,
            },
        )
        .expect("the optimizer reads what the frontend wrote");
        both.push((
            e.name.clone(),
            hlsl_corpus::instruction_count(&ours),
            hlsl_corpus::instruction_count(&optimized),
            hlsl_corpus::instruction_count(&theirs),
        ));
    }
    println!(
        "instruction counts, spvkit (unoptimized, -O) vs glslang, where both compile and validate:"
    );
    for (name, ours, optimized, theirs) in &both {
        println!(
            "  {name:<50} {ours:>6} {optimized:>6} {theirs:>6}  {:.2}",
            *optimized as f64 / (*theirs).max(1) as f64
        );
    }
    let (ours, optimized, theirs): (usize, usize, usize) = both
        .iter()
        .fold((0, 0, 0), |(a, b, c), (_, o, p, t)| (a + o, b + p, c + t));
    if both.is_empty() {
        println!("  (none: spvkit compiles none of the shaders glslang compiles)");
    } else {
        println!(
            "overall: {} shaders, {ours} unoptimized and {optimized} after -O vs {theirs} \
             instructions, ratios {:.2} and {:.2}",
            both.len(),
            ours as f64 / theirs.max(1) as f64,
            optimized as f64 / theirs.max(1) as f64
        );
    }
    println!(
        "spvkit could not compile {} shaders:",
        spvkit_failures.len()
    );
    for f in &spvkit_failures {
        println!("  {f}");
    }
}

#[test]
fn every_args_line_gives_frontend_options_except_out_of_scope_profiles() {
    let all = hlsl_corpus::load_all();
    let bad: Vec<String> = all
        .iter()
        .filter(|e| e.category != Category::Invalid)
        .filter_map(|e| {
            e.args
                .frontend_options()
                .err()
                .map(|m| format!("{}: {m}", e.name))
        })
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
