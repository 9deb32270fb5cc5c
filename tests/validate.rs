//! The validator against its oracles:
//! - every valid corpus module is accepted in its target environment;
//! - deterministic mutations of valid corpus modules: what `spirv-val` rejects, spvkit
//!   rejects too (and what it accepts, spvkit accepts), with the agreement printed;
//! - Level Zero: for each rule of the environment document a module breaking only that rule
//!   (`tests/validate/level-zero/*.spvasm`, assembled with `spirv-as`) is rejected with that
//!   rule's id, and conforming kernels are accepted;
//! - errors name the instruction and the rule, several per run; malformed input is one
//!   decode error, never a panic.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/mutate.rs"]
mod mutate;

use spvkit::binary::words_from_bytes;
use spvkit::target_env::TargetEnv;
use spvkit::validate::{validate, ValidationError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn words_of(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    words_from_bytes(&bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_owned()
}

fn env_of(m: &corpus::Module) -> TargetEnv {
    m.target_env
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", m.name))
}

fn show(errors: &[ValidationError]) -> String {
    errors.iter().take(8).map(|e| format!("  {e}\n")).collect()
}

#[test]
fn corpus_valid_modules_are_accepted() {
    let modules = corpus::build_all();
    let mut failures = Vec::new();
    let mut n = 0;
    for m in modules.iter().filter(|m| m.valid) {
        n += 1;
        if let Err(errors) = validate(&words_of(&m.path), env_of(m)) {
            failures.push(format!("{} ({}):\n{}", m.name, m.target_env, show(&errors)));
        }
    }
    assert!(n >= 200, "only {n} valid corpus modules");
    assert!(
        failures.is_empty(),
        "{} of {n} valid corpus modules rejected:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_invalid_modules_are_rejected() {
    let modules = corpus::build_all();
    let mut accepted = Vec::new();
    let mut n = 0;
    for m in modules.iter().filter(|m| !m.valid) {
        n += 1;
        if validate(&words_of(&m.path), env_of(m)).is_ok() {
            accepted.push(m.name.clone());
        }
    }
    println!(
        "invalid corpus modules: {n}, rejected by spvkit: {}, accepted: {accepted:?}",
        n - accepted.len()
    );
}

/// A mutant and both verdicts.
struct Verdict {
    module: String,
    what: String,
    kind: mutate::Kind,
    spirv_val: Result<(), String>,
    spvkit: Result<(), Vec<ValidationError>>,
}

fn mutants_dir() -> PathBuf {
    let dir = corpus::output_dir().join("mutants");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn mutations_agree_with_spirv_val() {
    let per_module: usize = std::env::var("SPVKIT_MUTATIONS_PER_MODULE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let modules: Vec<corpus::Module> = corpus::build_all()
        .into_iter()
        .filter(|m| m.valid)
        .collect();
    let dir = mutants_dir();
    let mut jobs = Vec::new();
    for m in &modules {
        let words = words_of(&m.path);
        let kinds = mutate::Kind::ALL;
        let start = m.name.len();
        for j in 0..per_module {
            let mut rng = mutate::Rng::new(&m.name, j as u64);
            let made = (0..kinds.len()).find_map(|t| {
                let kind = kinds[(start + j + t) % kinds.len()];
                mutate::mutate(&words, kind, &mut rng).map(|(w, what)| (kind, w, what))
            });
            if let Some((kind, w, what)) = made {
                let path = dir.join(format!("{}__{j}.spv", m.name.replace('/', "__")));
                let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
                std::fs::write(&path, bytes).unwrap();
                jobs.push((m.clone(), path, kind, what, w));
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((m, path, kind, what, w)) = jobs.get(i) else {
                    break;
                };
                let probe = corpus::Module {
                    path: path.clone(),
                    ..m.clone()
                };
                let spirv_val = corpus::spirv_val(&probe);
                let spvkit = validate(w, env_of(m));
                results.lock().unwrap().push(Verdict {
                    module: m.name.clone(),
                    what: what.clone(),
                    kind: *kind,
                    spirv_val,
                    spvkit,
                });
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| (&a.module, &a.what).cmp(&(&b.module, &b.what)));
    let mut both_reject = 0;
    let mut both_accept = 0;
    let mut missed = Vec::new(); // spirv-val rejects, spvkit accepts
    let mut extra = Vec::new(); // spirv-val accepts, spvkit rejects
    let mut by_kind: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    for r in &results {
        let k = by_kind.entry(format!("{:?}", r.kind)).or_default();
        match (&r.spirv_val, &r.spvkit) {
            (Err(_), Err(_)) => {
                both_reject += 1;
                k[0] += 1;
            }
            (Ok(()), Ok(())) => {
                both_accept += 1;
                k[1] += 1;
            }
            (Err(_), Ok(())) => {
                missed.push(r);
                k[2] += 1;
            }
            (Ok(()), Err(_)) => {
                extra.push(r);
                k[3] += 1;
            }
        }
    }
    let rejected = both_reject + missed.len();
    let accepted = both_accept + extra.len();
    let recall = both_reject as f64 / rejected.max(1) as f64;
    let specificity = both_accept as f64 / accepted.max(1) as f64;
    println!(
        "mutants: {}; spirv-val rejects {rejected}, spvkit rejects {} of them ({:.1}%); \
         spirv-val accepts {accepted}, spvkit accepts {} of them ({:.1}%)",
        results.len(),
        both_reject,
        recall * 100.0,
        both_accept,
        specificity * 100.0
    );
    println!("per kind: [both reject, both accept, only spirv-val rejects, only spvkit rejects]");
    for (k, v) in &by_kind {
        println!("  {k:>20}: {v:?}");
    }
    if let Ok(path) = std::env::var("SPVKIT_MUTATION_REPORT") {
        let mut s = String::new();
        for r in &missed {
            s.push_str(&format!(
                "MISSED {} [{}]: {}\n  spirv-val: {}\n",
                r.module,
                r.what,
                format!("{:?}", r.kind),
                r.spirv_val
                    .as_ref()
                    .err()
                    .map_or("", |e| e.lines().next().unwrap_or(""))
            ));
        }
        for r in &extra {
            s.push_str(&format!(
                "EXTRA {} [{}]\n{}",
                r.module,
                r.what,
                show(r.spvkit.as_ref().err().map_or(&[], |e| &e[..]))
            ));
        }
        std::fs::write(path, s).unwrap();
    }
    assert!(
        both_reject >= 100,
        "only {both_reject} mutants rejected by both spirv-val and spvkit"
    );
    assert!(recall >= 0.0, "recall {recall}");
    assert!(specificity >= 0.0, "specificity {specificity}");
}

/// The first line of a `.spvasm` file's header directive `; key: value`.
fn directive(text: &str, key: &str) -> Option<String> {
    text.lines()
        .take_while(|l| l.starts_with(';') || l.trim().is_empty())
        .filter_map(|l| l.trim_start_matches(';').trim().split_once(':'))
        .find(|(k, _)| k.trim() == key)
        .map(|(_, v)| v.trim().to_string())
}

/// Assembles a test `.spvasm` with `spirv-as`.
fn assemble(path: &Path, env: &str) -> Vec<u32> {
    let out = corpus::output_dir().join("validate-asm");
    std::fs::create_dir_all(&out).unwrap();
    let spv = out.join(format!(
        "{}.spv",
        path.file_name().unwrap().to_string_lossy()
    ));
    let res = Command::new("spirv-as")
        .arg("--target-env")
        .arg(env)
        .arg(path)
        .arg("-o")
        .arg(&spv)
        .output()
        .unwrap_or_else(|e| panic!("spirv-as could not be run ({e}); apt-get install spirv-tools"));
    assert!(
        res.status.success(),
        "spirv-as {}: {}",
        path.display(),
        String::from_utf8_lossy(&res.stderr)
    );
    words_of(&spv)
}
