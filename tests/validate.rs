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
        .unwrap_or(10);
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
                "MISSED {} [{}]: {:?}\n  spirv-val: {}\n",
                r.module,
                r.what,
                r.kind,
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
    // Thresholds a little below the figures measured (docs/validator.md), so that the test
    // fails when a change loses agreement.
    assert!(
        recall >= 0.98,
        "spvkit rejects only {:.1}% of what spirv-val rejects",
        recall * 100.0
    );
    assert!(
        specificity >= 0.98,
        "spvkit accepts only {:.1}% of what spirv-val accepts",
        specificity * 100.0
    );
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

/// Every rule id of the Level Zero environment; each has a module under
/// `tests/validate/level-zero/` that breaks it.
const LEVEL_ZERO_RULES: &[&str] = &[
    "level-zero:addressing-model",
    "level-zero:atomic-pointer",
    "level-zero:atomic-type",
    "level-zero:capability",
    "level-zero:execution-model",
    "level-zero:execution-scope",
    "level-zero:extended-instruction-set",
    "level-zero:extension",
    "level-zero:float-atomic-pointer",
    "level-zero:float-atomic-type",
    "level-zero:float-width",
    "level-zero:image-access-qualifier",
    "level-zero:image-arrayed",
    "level-zero:image-format",
    "level-zero:image-ms",
    "level-zero:image-read-const-offset",
    "level-zero:image-sampled",
    "level-zero:image-sampled-type",
    "level-zero:image-type",
    "level-zero:image-write-operands",
    "level-zero:int-signedness",
    "level-zero:int-width",
    "level-zero:kernel-argument-type",
    "level-zero:kernel-return-type",
    "level-zero:memory-model",
    "level-zero:memory-scope",
    "level-zero:recursion",
    "level-zero:spirv-version",
    "level-zero:subgroup-block-io-pointer",
    "level-zero:subgroup-block-io-type",
    "level-zero:subgroup-image-block-io-coordinate",
    "level-zero:subgroup-image-block-io-image",
    "level-zero:subgroup-image-block-write-coordinate",
    "level-zero:subgroup-shuffle-type",
    "level-zero:unsupported-type",
    "level-zero:vector-size",
];

/// Runs `spirv-val` on words.
fn spirv_val_words(words: &[u32], env: &str, name: &str) -> Result<(), String> {
    let dir = corpus::output_dir().join("validate-asm");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.checked.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("spirv-val")
        .arg("--target-env")
        .arg(env)
        .arg(&path)
        .output()
        .unwrap_or_else(|e| {
            panic!("spirv-val could not be run ({e}); apt-get install spirv-tools")
        });
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// For each Level Zero rule, a module that breaks it (and otherwise only the rules named by
/// its `; also:` directive) is rejected with that rule; the `; expect: valid` modules pass.
/// `spirv-val` confirms that the modules are valid SPIR-V (or, for `; spirv-val: invalid`,
/// that the extra rules are SPIR-V's own).
#[test]
fn level_zero_rules() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validate/level-zero");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spvasm"))
        .collect();
    files.sort();
    let mut covered = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    let mut valid = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let env = directive(&text, "assemble").unwrap_or_else(|| "spv1.2".into());
        let words = assemble(path, &env);
        // The module is valid SPIR-V apart from the Level Zero rule (spirv-val's view).
        let sv = spirv_val_words(&words, &env, &name);
        match (directive(&text, "spirv-val").as_deref(), &sv) {
            (Some("invalid"), Ok(())) => failures.push(format!(
                "{name}: spirv-val accepts it but the file says invalid"
            )),
            (None, Err(e)) => failures.push(format!("{name}: spirv-val rejects it: {e}")),
            _ => {}
        }
        let result = validate(&words, TargetEnv::LevelZero);
        if directive(&text, "expect").as_deref() == Some("valid") {
            valid += 1;
            if let Err(e) = result {
                failures.push(format!("{name}: expected valid, got\n{}", show(&e)));
            }
            continue;
        }
        let Some(rule) = directive(&text, "rule") else {
            failures.push(format!(
                "{name}: no `; rule:` or `; expect: valid` directive"
            ));
            continue;
        };
        let also: Vec<String> = directive(&text, "also")
            .map(|a| a.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        covered.insert(rule.clone());
        match result {
            Ok(()) => failures.push(format!("{name}: accepted, expected [{rule}]")),
            Err(errors) => {
                if !errors
                    .iter()
                    .any(|e| e.rule == rule && e.to_string().contains(&format!("[{rule}]")))
                {
                    failures.push(format!("{name}: no [{rule}] error in\n{}", show(&errors)));
                }
                let others: Vec<&ValidationError> = errors
                    .iter()
                    .filter(|e| e.rule != rule && !also.iter().any(|a| a == e.rule))
                    .collect();
                if !others.is_empty() {
                    failures.push(format!(
                        "{name}: breaks other rules than [{rule}] {also:?}:\n{}",
                        others
                            .iter()
                            .map(|e| format!("  {e}\n"))
                            .collect::<String>()
                    ));
                }
            }
        }
    }
    for r in LEVEL_ZERO_RULES {
        if !covered.contains(*r) {
            failures.push(format!("no module breaks {r}"));
        }
    }
    println!(
        "level-zero: {} rule modules covering {} rules, {valid} valid modules",
        files.len() - valid,
        covered.len()
    );
    assert!(valid >= 3, "only {valid} valid Level Zero modules");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// OpenCL kernels of the corpus (clang-15 + llvm-spirv-15) against Level Zero: those the
/// document allows pass; the others fail only with the rules the document gives, listed
/// here with the reason.
#[test]
fn level_zero_opencl_corpus() {
    const EXPECTED: &[(&str, &[&str], &str)] = &[
        (
            "opencl/atomics_c11.cl",
            &["level-zero:atomic-type"],
            "32-bit float atomic load/store: the document lists 32/64-bit integers and 16-bit floats",
        ),
        (
            "opencl/enqueue_kernel.cl",
            &[
                "level-zero:capability",
                "level-zero:kernel-argument-type",
                "level-zero:unsupported-type",
            ],
            "DeviceEnqueue is not a Level Zero capability (nor OpTypeQueue, OpTypeDeviceEvent a \
             supported type); block kernels take Generic pointers",
        ),
        (
            "opencl/pipes.cl",
            &[
                "level-zero:capability",
                "level-zero:kernel-argument-type",
                "level-zero:unsupported-type",
            ],
            "Pipes is not a Level Zero capability, OpTypePipe not a supported type",
        ),
        (
            "opencl/mandelbrot_O2.cl",
            &["level-zero:spirv-version"],
            "built as SPIR-V 1.4; Level Zero's document covers 1.0 to 1.2",
        ),
        (
            "opencl/spir32_basic.cl",
            &["level-zero:addressing-model"],
            "spir (32-bit): Physical32",
        ),
        (
            "opencl/spir32_cl12.cl",
            &["level-zero:addressing-model"],
            "spir (32-bit): Physical32",
        ),
        (
            "opencl/spir32_images.cl",
            &["level-zero:addressing-model"],
            "spir (32-bit): Physical32",
        ),
        (
            "opencl/structs.cl",
            &["level-zero:kernel-argument-type"],
            "a by-value struct argument is a pointer to Function memory",
        ),
    ];
    let modules = corpus::build_all();
    let mut passed = 0;
    let mut failures = Vec::new();
    let mut n = 0;
    for m in modules
        .iter()
        .filter(|m| m.valid && m.source == corpus::Source::OpenCl)
    {
        n += 1;
        let result = validate(&words_of(&m.path), TargetEnv::LevelZero);
        let expected = EXPECTED.iter().find(|(name, _, _)| *name == m.name);
        match (result, expected) {
            (Ok(()), None) => passed += 1,
            (Ok(()), Some(_)) => failures.push(format!("{}: expected rejection", m.name)),
            (Err(e), None) => failures.push(format!("{}: rejected\n{}", m.name, show(&e))),
            (Err(e), Some((_, rules, _))) => {
                let bad: Vec<_> = e.iter().filter(|e| !rules.contains(&e.rule)).collect();
                if !bad.is_empty() {
                    failures.push(format!(
                        "{}: unexpected rules:\n{}",
                        m.name,
                        bad.iter().map(|e| format!("  {e}\n")).collect::<String>()
                    ));
                }
            }
        }
    }
    println!(
        "level-zero: {passed} of {n} OpenCL corpus kernels accepted, {} rejected as the document \
         requires",
        EXPECTED.len()
    );
    assert!(n >= 30, "only {n} OpenCL corpus modules");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Errors name the instruction (word offset and text) and the rule; one run reports several.
#[test]
fn errors_name_instruction_and_rule() {
    let text = "\
; Two unrelated errors: an undefined id and an integer add of floats.
               OpCapability Shader
               OpCapability Linkage
               OpMemoryModel Logical GLSL450
       %void = OpTypeVoid
      %float = OpTypeFloat 32
        %uint = OpTypeInt 32 0
    %float_1 = OpConstant %float 1
         %fn = OpTypeFunction %void
          %f = OpFunction %void None %fn
          %l = OpLabel
          %x = OpIAdd %uint %float_1 %float_1
               OpReturn
               OpFunctionEnd
";
    let dir = corpus::output_dir().join("validate-asm");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("two_errors.spvasm");
    std::fs::write(&path, text).unwrap();
    let words = assemble(&path, "spv1.0");
    let errors = validate(&words, TargetEnv::Universal1_0).unwrap_err();
    let e = errors
        .iter()
        .find(|e| e.rule == "core:operand-type")
        .expect("the OpIAdd error");
    assert!(e.instruction.contains("OpIAdd"), "{e}");
    assert_eq!(words[e.offset] & 0xffff, 128, "the offset is OpIAdd's: {e}");
    assert!(
        e.to_string().starts_with(&format!(
            "word {}: {}: [core:operand-type] ",
            e.offset, e.instruction
        )),
        "{e}"
    );
    // Several independent errors are reported in one run.
    let text = text.replace(
        "               OpReturn\n",
        "          %y = OpCompositeExtract %float %float_1 0\n               OpReturn\n",
    );
    std::fs::write(&path, text).unwrap();
    let words = assemble(&path, "spv1.0");
    let errors = validate(&words, TargetEnv::Universal1_0).unwrap_err();
    let rules: Vec<&str> = errors.iter().map(|e| e.rule).collect();
    assert!(rules.contains(&"core:operand-type"), "{rules:?}");
    assert!(rules.contains(&"core:composite"), "{rules:?}");
    assert!(
        errors.windows(2).all(|w| w[0].offset <= w[1].offset),
        "module order"
    );
}

/// A module that does not decode is one error.
#[test]
fn decode_errors_are_single_errors() {
    let m = &corpus::build_all()[0];
    let mut words = words_of(&m.path);
    words[5] &= 0xffff; // the first instruction's word count is zero
    let errors = validate(&words, env_of(m)).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].rule, "core:binary");
    assert!(validate(&[], TargetEnv::Universal1_0).unwrap_err()[0].rule == "core:binary");
    assert!(validate(
        &[0x0723_0203, 0x0001_0000, 0, 1, 0],
        TargetEnv::Universal1_0
    )
    .is_err());
}

/// Arbitrary damage to corpus modules never panics (a quick, deterministic cousin of the
/// `validate` fuzz target).
#[test]
fn damaged_modules_never_panic() {
    let modules = corpus::build_all();
    let mut rng = mutate::Rng::new("damage", 0);
    let mut runs = 0;
    for m in modules.iter().step_by(3) {
        let words = words_of(&m.path);
        let env = env_of(m);
        for _ in 0..20 {
            let mut w = words.clone();
            for _ in 0..1 + rng.below(4) {
                let i = 5 + rng.below(w.len() - 5);
                w[i] = match rng.below(4) {
                    0 => rng.next() as u32,
                    1 => w[i] ^ (1 << rng.below(32)),
                    2 => w[i].wrapping_add(1),
                    _ => w[rng.below(w.len())],
                };
            }
            let _ = validate(&w, env);
            let cut = 5 + rng.below(w.len() - 5);
            let _ = validate(&w[..cut], env);
            runs += 2;
        }
    }
    assert!(runs > 1000);
}

/// Inputs the `validate` fuzz target once crashed on (the first byte picks the environment,
/// as in the target); every environment is tried.
#[test]
fn fuzz_regressions_do_not_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions/validate");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let Some((_, rest)) = bytes.split_first() else {
            continue;
        };
        let Ok(words) = words_from_bytes(rest) else {
            continue;
        };
        for env in TargetEnv::ALL {
            if let Err(e) = validate(&words, env) {
                assert!(!e.is_empty());
            }
        }
        n += 1;
    }
    assert!(n > 0);
}

/// `spvkit val`: exit 0 for a valid module, 1 with one `file: word N: ...: [rule] ...` line
/// per error otherwise.
#[test]
#[cfg(feature = "cli")]
fn val_command() {
    let modules = corpus::build_all();
    let m = modules
        .iter()
        .find(|m| m.valid && m.source == corpus::Source::Glsl)
        .unwrap();
    let spvkit = env!("CARGO_BIN_EXE_spvkit");
    let ok = Command::new(spvkit)
        .args(["val", "--target-env", &m.target_env])
        .arg(&m.path)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let bad = Command::new(spvkit)
        .args(["val", "--target-env", "level-zero"])
        .arg(&m.path)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.lines().count() >= 2, "{err}");
    assert!(
        err.lines()
            .all(|l| l.contains(": word ") && l.contains("[level-zero:")),
        "{err}"
    );
    let unknown = Command::new(spvkit)
        .args(["val", "--target-env", "vulkan9"])
        .arg(&m.path)
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(1));
}

/// SPV_INTEL_long_composites: a continuation adds its constituents to the composite right
/// before it (so the count matches the array), and one that follows no composite is an error.
#[test]
fn long_composite_continuations() {
    let head = "\
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability LongConstantCompositeINTEL
               OpExtension \"SPV_INTEL_long_constant_composite\"
               OpMemoryModel Physical64 OpenCL
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
        %arr = OpTypeArray %uint %uint_3
";
    let dir = corpus::output_dir().join("validate-asm");
    std::fs::create_dir_all(&dir).unwrap();
    let check = |name: &str, body: &str| {
        let path = dir.join(format!("{name}.spvasm"));
        std::fs::write(&path, format!("{head}{body}")).unwrap();
        validate(&assemble(&path, "spv1.0"), TargetEnv::Universal1_0)
    };
    check(
        "continued",
        "%c = OpConstantComposite %arr %uint_1 %uint_1\n\
         OpConstantCompositeContinuedINTEL %uint_1\n",
    )
    .unwrap();
    let e = check("short", "%c = OpConstantComposite %arr %uint_1 %uint_1\n").unwrap_err();
    assert!(
        show(&e).contains("2 constituents for 3 array elements"),
        "{}",
        show(&e)
    );
    let e = check("stray", "OpConstantCompositeContinuedINTEL %uint_1\n").unwrap_err();
    assert!(
        show(&e).contains("must follow an OpConstantComposite"),
        "{}",
        show(&e)
    );
}
