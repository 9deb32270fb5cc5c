//! Every valid GLCompute and Kernel module of the test corpus either lowers to a module the
//! LLVM verifier accepts, or fails with a `LowerError` naming the op; never a panic. The
//! fraction that lowers is asserted.
#![cfg(feature = "llvm")]

#[path = "support/corpus.rs"]
mod corpus;

use inkwell::context::Context;
use spvkit::grammar::ExecutionModel;
use spvkit::lower::{lower_binary, LowerErrorKind, LowerOptions};
use std::collections::BTreeMap;

#[test]
fn corpus_compute_modules_lower_and_verify() {
    let mut total = 0;
    let mut ok = 0;
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in corpus::build_all() {
        if !m.valid {
            continue;
        }
        let words = m.words();
        let Ok(ir) = spvkit::ir::deserialize(&words) else {
            continue;
        };
        if ir.entry_points.is_empty()
            || !ir.entry_points.iter().all(|e| {
                matches!(
                    e.execution_model,
                    ExecutionModel::GLCompute | ExecutionModel::Kernel
                )
            })
        {
            continue;
        }
        total += 1;
        let r = std::panic::catch_unwind(|| {
            let cx = Context::create();
            let result = match lower_binary(&cx, &words, &LowerOptions::default()) {
                Ok(l) => {
                    l.module
                        .verify()
                        .map_err(|e| format!("verifier: {}", e.to_string()))?;
                    assert_eq!(l.entries.len(), ir.entry_points.len());
                    // LLVM's O2 pipeline accepts the output too.
                    spvkit::lower::optimize(&l.module, 2).map_err(|e| e.to_string())?;
                    l.module
                        .verify()
                        .map_err(|e| format!("verifier after -O2: {}", e.to_string()))?;
                    for e in &l.entries {
                        assert!(
                            l.module.get_function(&e.symbol).is_some(),
                            "{}: no wrapper {}",
                            m.name,
                            e.symbol
                        );
                    }
                    Ok(())
                }
                Err(e) => {
                    assert!(!e.op.is_empty(), "{}: an error without an op: {e}", m.name);
                    assert!(
                        e.kind != LowerErrorKind::Llvm,
                        "{}: LLVM refused the lowering's output: {e}",
                        m.name
                    );
                    Err(e.to_string())
                }
            };
            result
        });
        match r {
            Ok(Ok(())) => ok += 1,
            Ok(Err(e)) => failures.entry(e).or_default().push(m.name.clone()),
            Err(_) => panic!("{}: the lowering panicked", m.name),
        }
    }
    eprintln!("corpus GLCompute/Kernel modules: {ok} of {total} lower and verify");
    for (e, ms) in &failures {
        eprintln!("  {e}: {ms:?}");
    }
    assert!(total >= 40, "the corpus has {total} compute modules");
    assert!(
        ok * 100 >= total * 65,
        "only {ok} of {total} compute modules lower"
    );
}

#[path = "support/mutate.rs"]
mod mutate;

/// Near-miss inputs (40 mutants of each corpus module, mostly invalid SPIR-V): the lowering
/// returns a module that verifies or an error; it never panics (nor crashes LLVM).
#[test]
fn mutated_modules_never_panic() {
    let per_module = 40;
    let mut lowered = 0;
    let mut errors = 0;
    let mut panics = Vec::new();
    for m in corpus::build_all() {
        if !m.valid {
            continue;
        }
        let words = m.words();
        let kinds = mutate::Kind::ALL;
        for j in 0..per_module {
            let mut rng = mutate::Rng::new(&m.name, j as u64);
            let Some((w, what)) = (0..kinds.len())
                .find_map(|t| mutate::mutate(&words, kinds[(j + t) % kinds.len()], &mut rng))
            else {
                continue;
            };
            // A crash inside LLVM kills the process: SPVKIT_TRACE=1 names the last mutant.
            if std::env::var_os("SPVKIT_TRACE").is_some() {
                eprintln!("{} #{j}: {what}", m.name);
            }
            let r = std::panic::catch_unwind(|| {
                let cx = Context::create();
                let result = match lower_binary(&cx, &w, &LowerOptions::default()) {
                    Ok(l) => l.module.verify().map_err(|e| e.to_string()).map(|_| true),
                    Err(_) => Ok(false),
                };
                result
            });
            match r {
                Ok(Ok(true)) => lowered += 1,
                Ok(Ok(false)) => errors += 1,
                Ok(Err(e)) => panics.push(format!("{} ({what}): unverified output: {e}", m.name)),
                Err(_) => panics.push(format!("{} ({what}): panicked", m.name)),
            }
        }
    }
    eprintln!(
        "mutants: {lowered} lowered, {errors} rejected, {} failures",
        panics.len()
    );
    assert!(panics.is_empty(), "{panics:#?}");
}

/// Inputs the `lower` fuzz target found crashing (`tests/fuzz-regressions/lower/`): each lowers
/// to verified LLVM or fails with an error, never a panic.
#[test]
fn fuzz_regressions_lower_or_fail_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions/lower");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the regression directory") {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let r = std::panic::catch_unwind(|| {
            let cx = Context::create();
            let verified = match lower_binary(&cx, &words, &LowerOptions::default()) {
                Ok(l) => l.module.verify().map_err(|e| e.to_string()),
                Err(_) => Ok(()),
            };
            verified
        });
        match r {
            Ok(Ok(())) => n += 1,
            Ok(Err(e)) => panic!("{}: unverified output: {e}", path.display()),
            Err(_) => panic!("{}: panicked", path.display()),
        }
    }
    assert!(n >= 1, "no regression inputs in {}", dir.display());
}
