//! `spvkit opt --update-vce`, and each pass of `spvkit opt` alone, on every valid module of
//! the repository's test corpora: every pass's output passes spirv-val; the
//! output (the module rewritten through the IR to its minimal version, capabilities and
//! extensions, its interfaces completed at SPIR-V 1.4 and later) passes spirv-val in the
//! module's environment, and the word-level `requirements::update_vce` settles on the same
//! version, capabilities and extensions.
//!
//! The corpora: `tests/corpus/{glsl,hlsl,spvasm,opencl}` (`support/corpus.rs`: glslang,
//! spirv-as, clang-15 and llvm-spirv-15), the compute shaders of `tests/corpus/compute`
//! (glslang), the HLSL frontend's corpus compiled by spvkit's own frontend and by glslang,
//! and the OpenCL C kernels of `tests/corpus/opencl/from_llvm` and `tests/corpus/opencl-spvir`
//! translated by llvm-spirv-15 and by `spvkit from-llvm`. A module whose own spirv-val fails
//! (the corpora keep a few invalid ones on purpose) is not counted. The rewriting runs in
//! process; the compilers and spirv-val run as processes, several at a time.

#![cfg(all(feature = "hlsl", feature = "run", feature = "cli"))]

#[path = "support/compute.rs"]
mod compute;
#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/hlsl_corpus.rs"]
mod hlsl_corpus;
#[path = "support/opencl.rs"]
mod opencl;

use spvkit::binary::decode_module;
use spvkit::opt::{optimize, OptOptions, Pass};
use spvkit::requirements::{declared, update_vce};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One module to check.
struct Candidate {
    /// Where it comes from, for messages.
    name: String,
    words: Vec<u32>,
    /// `spirv-val --target-env`.
    env: String,
    /// `--relax-block-layout` (the HLSL corpus on Vulkan 1.0, as DXC validates).
    relax: bool,
}

/// Runs `f` on every item with a few threads; the results in item order.
fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { return };
                let r = f(item);
                out.lock().unwrap()[i] = Some(r);
            });
        }
    });
    out.into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

fn scratch() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("update-vce-corpus");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `spirv-val` of `words` as `c` says; `Err` has its output.
fn spirv_val(c: &Candidate, words: &[u32], tag: &str) -> Result<(), String> {
    let path = scratch().join(format!(
        "{}.{tag}.spv",
        c.name.replace(|ch: char| !ch.is_ascii_alphanumeric(), "_")
    ));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let mut cmd = Command::new("spirv-val");
    cmd.args(["--target-env", &c.env]);
    if c.relax {
        cmd.arg("--relax-block-layout");
    }
    let out = cmd.arg(&path).output().expect("spirv-val runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// What compiles a part of the corpora.
enum Source {
    Compute(PathBuf),
    Hlsl(Box<hlsl_corpus::Entry>),
    /// An OpenCL C kernel: clang-15 then llvm-spirv-15 and `from-llvm`.
    OpenCl(PathBuf, &'static str),
}

/// The modules one source gives.
fn compile(source: &Source) -> Vec<Candidate> {
    match source {
        Source::Compute(path) => vec![Candidate {
            name: format!("compute/{}", path.file_name().unwrap().to_string_lossy()),
            words: compute::compile(path),
            env: "vulkan1.1".into(),
            relax: false,
        }],
        Source::Hlsl(e) => {
            let candidate = |tag: &str, words| Candidate {
                name: format!("hlsl-corpus/{} ({tag})", e.name),
                words,
                env: e.args.target_env.clone(),
                relax: e.args.target_env == "vulkan1.0",
            };
            let mut out = Vec::new();
            if let Ok(words) = e
                .args
                .frontend_options()
                .and_then(|o| spvkit::hlsl::compile_file(&e.path, &o).map_err(|err| err.rendered))
                .map(|c| c.words)
            {
                out.push(candidate("spvkit", words));
            }
            if !matches!(e.glslang, hlsl_corpus::Glslang::Fails(_)) {
                if let Ok(words) = hlsl_corpus::glslang(e) {
                    out.push(candidate("glslang", words));
                }
            }
            out
        }
        Source::OpenCl(path, part) => {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let dir = scratch().join(part);
            std::fs::create_dir_all(&dir).unwrap();
            let bc = dir.join(format!("{name}.bc"));
            let text = std::fs::read_to_string(path).unwrap();
            let extra: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix("// args:"))
                .flat_map(str::split_whitespace)
                .collect();
            let mut flags = vec!["-O2", "-no-opaque-pointers", "-cl-ext=+cl_khr_subgroups"];
            flags.extend(extra);
            opencl::clang(path, "spir64-unknown-unknown", flags, &bc)
                .unwrap_or_else(|e| panic!("{e}"));
            let spv = dir.join(format!("{name}.spv"));
            let mut cmd = Command::new("llvm-spirv-15");
            cmd.arg("--spirv-max-version=1.0");
            cmd.args(
                text.lines()
                    .filter_map(|l| l.strip_prefix("// llvm-spirv:"))
                    .flat_map(str::split_whitespace),
            );
            opencl::run_ok(cmd.arg(&bc).arg("-o").arg(&spv));
            let bitcode = std::fs::read(&bc).unwrap();
            let ours = spvkit::from_llvm::from_llvm(&bitcode, &name, &Default::default())
                .unwrap_or_else(|e| panic!("{part}/{name}: from-llvm: {e}"));
            vec![
                Candidate {
                    name: format!("{part}/{name} (llvm-spirv-15)"),
                    words: words_of(&std::fs::read(&spv).unwrap()),
                    env: "opencl2.0".into(),
                    relax: false,
                },
                Candidate {
                    name: format!("{part}/{name} (from-llvm)"),
                    words: ours,
                    env: "opencl2.0".into(),
                    relax: false,
                },
            ]
        }
    }
}

fn cl_sources(dir: &Path, part: &'static str) -> Vec<Source> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    paths.sort();
    paths.into_iter().map(|p| Source::OpenCl(p, part)).collect()
}

/// What one module gives: `None` when the module itself is invalid, else the failures.
fn check(c: &Candidate) -> Option<Vec<String>> {
    spirv_val(c, &c.words, "in").ok()?;
    let mut failures = Vec::new();
    // Every pass keeps the module valid.
    for pass in Pass::ALL {
        let options = OptOptions {
            passes: vec![pass],
            update_vce: false,
        };
        match optimize(&c.words, &options) {
            Ok(w) => {
                if let Err(e) = spirv_val(c, &w, pass.name()) {
                    failures.push(format!(
                        "{}: the --{} output is invalid: {e}",
                        c.name,
                        pass.name()
                    ));
                }
            }
            Err(e) => failures.push(format!("{}: opt --{}: {e}", c.name, pass.name())),
        }
    }
    // And so do the recipes.
    for (flag, recipe) in [
        ("-O", spvkit::opt::PERFORMANCE),
        ("--legalize-hlsl", spvkit::opt::LEGALIZE_HLSL),
    ] {
        let options = OptOptions {
            passes: recipe.to_vec(),
            update_vce: false,
        };
        match optimize(&c.words, &options) {
            Ok(w) => {
                if let Err(e) = spirv_val(c, &w, "recipe") {
                    failures.push(format!("{}: the {flag} output is invalid: {e}", c.name));
                }
            }
            Err(e) => failures.push(format!("{}: opt {flag}: {e}", c.name)),
        }
    }
    let options = OptOptions {
        passes: Vec::new(),
        update_vce: true,
    };
    let via_ir = match optimize(&c.words, &options) {
        Ok(w) => w,
        Err(e) => return Some(vec![format!("{}: opt --update-vce: {e}", c.name)]),
    };
    if let Err(e) = spirv_val(c, &via_ir, "vce") {
        failures.push(format!(
            "{}: the opt --update-vce output is invalid: {e}",
            c.name
        ));
    }
    let vce = |w: &[u32]| {
        let (h, insts) = decode_module(w).unwrap();
        declared(&h, &insts)
    };
    match update_vce(&c.words) {
        Ok(w) if vce(&w) == vce(&via_ir) => {}
        Ok(w) => failures.push(format!(
            "{}: the word path gives {:?}, the IR path {:?}",
            c.name,
            vce(&w),
            vce(&via_ir)
        )),
        Err(e) => failures.push(format!("{}: update_vce: {e}", c.name)),
    }
    Some(failures)
}

#[test]
fn update_vce_output_of_every_valid_corpus_module_validates() {
    let start = std::time::Instant::now();
    let mut candidates: Vec<Candidate> = corpus::build_all()
        .into_iter()
        .filter(|m| m.valid)
        .map(|m| Candidate {
            name: m.name.clone(),
            words: m.words(),
            env: m.target_env.clone(),
            relax: false,
        })
        .collect();
    let mut sources: Vec<Source> = std::fs::read_dir(compute::dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp" || e == "hlsl"))
        .map(Source::Compute)
        .collect();
    sources.extend(
        hlsl_corpus::load_all()
            .into_iter()
            .filter(|e| e.category != hlsl_corpus::Category::Invalid)
            .map(|e| Source::Hlsl(Box::new(e))),
    );
    sources.extend(cl_sources(&opencl::corpus_dir(), "from_llvm"));
    let spvir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/opencl-spvir");
    sources.extend(cl_sources(&spvir, "opencl-spvir"));
    candidates.extend(parallel(&sources, compile).into_iter().flatten());
    let compiled = start.elapsed();

    let results = parallel(&candidates, check);
    let mut checked = 0;
    let mut invalid_inputs = Vec::new();
    let mut failures = Vec::new();
    for (c, r) in candidates.iter().zip(results) {
        match r {
            Some(f) => {
                checked += 1;
                failures.extend(f);
            }
            None => invalid_inputs.push(c.name.as_str()),
        }
    }
    let mut parts = std::collections::BTreeMap::new();
    for c in &candidates {
        let part = c.name.split('/').next().unwrap_or("");
        let tool = c
            .name
            .rsplit_once(" (")
            .map_or("", |(_, t)| t.trim_end_matches(')'));
        *parts.entry(format!("{part} {tool}")).or_insert(0) += 1;
    }
    eprintln!(
        "opt --update-vce: {checked} valid modules checked {parts:?} ({} skipped as invalid \
         inputs: {invalid_inputs:?}); compiling {:.1?}, checking {:.1?}",
        invalid_inputs.len(),
        compiled,
        start.elapsed() - compiled
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 500, "only {checked} modules");
}
