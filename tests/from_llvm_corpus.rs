//! `spvkit from-llvm` over every OpenCL C source of the SPIR-V corpus (`tests/corpus/opencl/*.cl`:
//! images of every dimension, samplers, pipes, device-side enqueue, C11 atomics and flags,
//! subgroups, work-group functions, printf, debug information, spir and spir64) as clang-15
//! compiles it, unoptimized with typed pointers (as the corpus builds it) and with `-O2` and
//! opaque pointers: each translates, and the SPIR-V passes spirv-val.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/opencl.rs"]
mod opencl;

use opencl::{clang, out_dir, run, spirv_val};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The values of the `// key: value` lines of a source's leading comment block, split into
/// words.
fn directive(text: &str, key: &str) -> Vec<String> {
    text.lines()
        .take_while(|l| l.trim().is_empty() || l.starts_with("//"))
        .filter_map(|l| {
            l.strip_prefix("//")?
                .trim()
                .strip_prefix(key)?
                .strip_prefix(':')
        })
        .flat_map(|v| v.split_whitespace().map(str::to_owned))
        .collect()
}

/// The environment spirv-val checks a translated module in: the source's `target-env`, or
/// OpenCL 2.0. spirv-val's OpenCL tables lack the capabilities of `cl_khr_fp16` (`Float16`)
/// and of the 64-bit atomics extensions (`Int64Atomics`), which OpenCL devices with those
/// extensions accept; modules declaring them are checked in the universal SPIR-V 1.0
/// environment instead.
fn environment(declared: &str, spv: &Path) -> Result<String, String> {
    if !declared.is_empty() {
        return Ok(declared.to_owned());
    }
    let dis = run(Command::new("spirv-dis").arg(spv))?;
    let dis = String::from_utf8_lossy(&dis);
    let outside_tables = dis
        .lines()
        .any(|l| l.contains("OpCapability Float16\n") || l.ends_with("OpCapability Float16"))
        || dis.contains("OpCapability Int64Atomics");
    Ok(if outside_tables {
        "spv1.0"
    } else {
        "opencl2.0"
    }
    .to_owned())
}

/// Compiles `src` with clang-15 (`variant` flags after the source's own), translates it and
/// validates the result.
fn translate(src: &Path, tag: &str, variant: &[&str]) -> Result<(), String> {
    let text = std::fs::read_to_string(src).map_err(|e| e.to_string())?;
    let name = src.file_stem().unwrap().to_string_lossy();
    let triple = directive(&text, "triple")
        .pop()
        .unwrap_or_else(|| "spir64-unknown-unknown".to_owned());
    let out = out_dir().join("corpus");
    std::fs::create_dir_all(&out).unwrap();
    let bc = out.join(format!("{name}.{tag}.bc"));
    let spv = out.join(format!("{name}.{tag}.spv"));
    let flags = variant.iter().map(|f| f.to_string());
    clang(src, &triple, flags.chain(directive(&text, "args")), &bc)?;
    run(Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .arg("from-llvm")
        .arg(&bc)
        .arg("-o")
        .arg(&spv))?;
    let env = environment(
        &directive(&text, "target-env").pop().unwrap_or_default(),
        &spv,
    )?;
    spirv_val(&spv, &env).map_err(|e| format!("spirv-val --target-env {env}: {e}"))
}

/// Every OpenCL C source of the SPIR-V corpus, sorted.
fn sources() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/opencl");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 45, "only {} sources", sources.len());
    sources
}

#[test]
fn every_opencl_corpus_source_translates_from_clang_and_validates() {
    let sources = sources();
    let variants: [(&str, &[&str]); 2] = [
        ("O0-typed", &["-O0", "-no-opaque-pointers"]),
        ("O2", &["-O2"]),
    ];
    let mut failures = Vec::new();
    let mut passed = 0;
    for src in &sources {
        for (tag, flags) in variants {
            match translate(src, tag, flags) {
                Ok(()) => passed += 1,
                Err(e) => failures.push(format!("{} ({tag}): {e}", src.display())),
            }
        }
    }
    eprintln!(
        "from-llvm over the OpenCL corpus: {passed}/{} translations valid",
        sources.len() * variants.len()
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The other two inputs of the issue, for every corpus source compiled unoptimized with typed
/// pointers (as the corpus builds it) and converted by llvm-spirv-15: its SPV-IR
/// (`llvm-spirv-15 -r --spirv-target-env=SPV-IR`) through from-llvm, and spvkit's own spv-ir of
/// the same SPIR-V (`spvkit lower --style spv-ir`) back through from-llvm. Both validate.
/// Sources whose llvm-spirv-15 SPIR-V spirv-val rejects are left out, loudly: spvkit refuses
/// that SPIR-V with its place.
#[test]
fn every_opencl_corpus_source_round_trips_through_spv_ir() {
    let out = out_dir().join("corpus");
    std::fs::create_dir_all(&out).unwrap();
    let spvkit = || Command::new(env!("CARGO_BIN_EXE_spvkit"));
    let (mut passed, mut skipped) = (0, Vec::new());
    let mut failures = Vec::new();
    for src in sources() {
        let text = std::fs::read_to_string(&src).unwrap();
        let name = src.file_stem().unwrap().to_string_lossy().into_owned();
        let triple = directive(&text, "triple")
            .pop()
            .unwrap_or_else(|| "spir64-unknown-unknown".to_owned());
        let file = |ext: &str| out.join(format!("{name}.rt.{ext}"));
        let steps = || -> Result<bool, String> {
            let typed = ["-O0", "-no-opaque-pointers"].map(String::from);
            clang(
                &src,
                &triple,
                typed.into_iter().chain(directive(&text, "args")),
                &file("bc"),
            )?;
            run(Command::new("llvm-spirv-15")
                .arg("--spirv-max-version=1.0")
                .args(directive(&text, "llvm-spirv"))
                .arg(file("bc"))
                .arg("-o")
                .arg(file("spv")))?;
            let env = directive(&text, "target-env").pop().unwrap_or_default();
            let reference_env = environment(&env, &file("spv"))?;
            if spirv_val(&file("spv"), &reference_env).is_err() {
                return Ok(false);
            }
            run(Command::new("llvm-spirv-15")
                .args(["-r", "--spirv-target-env=SPV-IR"])
                .arg(file("spv"))
                .arg("-o")
                .arg(file("spvir.bc")))?;
            run(spvkit()
                .args(["lower", "--style", "spv-ir", "--emit", "bc"])
                .arg(file("spv"))
                .arg("-o")
                .arg(file("ours.bc")))?;
            for input in ["spvir.bc", "ours.bc"] {
                let spv = file(&format!("{input}.spv"));
                run(spvkit()
                    .arg("from-llvm")
                    .arg(file(input))
                    .arg("-o")
                    .arg(&spv))
                .map_err(|e| format!("{input}: {e}"))?;
                let env = environment(&env, &spv)?;
                spirv_val(&spv, &env).map_err(|e| format!("{input}: spirv-val {env}: {e}"))?;
            }
            Ok(true)
        };
        match steps() {
            Ok(true) => passed += 1,
            Ok(false) => skipped.push(name),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "SPV-IR and spv-ir round trips: {passed} sources pass both; left out, their \
         llvm-spirv-15 SPIR-V being invalid: {skipped:?}"
    );
    assert!(passed >= 40, "only {passed} sources round-trip");
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A kernel another kernel calls: SPIR-V forbids calling an entry point, so its entry point
/// is a wrapper that calls it. Both kernels run under `spvkit run` and compute their buffers.
#[test]
fn a_kernel_that_another_kernel_calls_gets_an_entry_wrapper_and_runs() {
    let out = out_dir().join("corpus");
    std::fs::create_dir_all(&out).unwrap();
    let src = out.join("kernel_calls_kernel.cl");
    std::fs::write(
        &src,
        "__kernel void twice(__global int *d) { d[get_global_id(0)] *= 2; }\n\
         __kernel void four(__global int *d) { twice(d); twice(d); }\n",
    )
    .unwrap();
    let (bc, spv) = (
        out.join("kernel_calls_kernel.bc"),
        out.join("kernel_calls_kernel.spv"),
    );
    clang(&src, "spir64-unknown-unknown", ["-O0"], &bc).unwrap();
    let spvkit = || Command::new(env!("CARGO_BIN_EXE_spvkit"));
    run(spvkit().arg("from-llvm").arg(&bc).arg("-o").arg(&spv)).unwrap();
    spirv_val(&spv, "opencl2.0").unwrap();
    for (entry, want) in [("twice", "[2, 4, 6, 8]"), ("four", "[4, 8, 12, 16]")] {
        let job = out.join(format!("kernel_calls_kernel.{entry}.json"));
        std::fs::write(
            &job,
            format!(
                r#"{{"entry": "{entry}", "dispatch": [1, 1, 1], "local_size": [4, 1, 1], "work_dim": 1,
                   "args": [{{"kind": "buffer", "layout": ["i32"], "data": [1, 2, 3, 4]}}]}}"#
            ),
        )
        .unwrap();
        let got = run(spvkit().arg("run").arg(&spv).arg("--job").arg(&job)).unwrap();
        let got = String::from_utf8_lossy(&got);
        assert!(got.contains(want), "{entry}: {got}");
    }
}
