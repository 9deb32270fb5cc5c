//! The HLSL frontend end to end: shaders covering each feature compile, pass spirv-val in their
//! environment (with `--relax-block-layout` for Vulkan 1.0, as DXC's relaxed layouts need), and,
//! for compute shaders, run on lavapipe with their buffers checked against values computed here
//! in Rust. Invalid programs report their errors with `file:line:col`.

#[cfg(feature = "llvm")]
#[path = "support/compute.rs"]
mod compute;
#[cfg(feature = "llvm")]
#[path = "support/vulkan.rs"]
mod vulkan;

use spvkit::hlsl::{compile_source, LanguageVersion, Options, Profile};
use spvkit::target_env::TargetEnv;
use std::path::PathBuf;
use std::process::Command;

fn options(profile: &str, env: TargetEnv, hv: LanguageVersion) -> Options {
    let mut o = Options::new("main", profile.parse::<Profile>().expect("profile"));
    o.target_env = env;
    o.version = hv;
    o
}

fn compile_with(name: &str, src: &str, o: &Options) -> Vec<u32> {
    match compile_source(&format!("{name}.hlsl"), src, o) {
        Ok(c) => c.words,
        Err(e) => panic!("{name} does not compile:\n{}", e.rendered),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hlsl-compile");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir.join(format!("{name}.spv"))
}

fn spirv_val(name: &str, words: &[u32], env: TargetEnv) {
    let path = scratch(name);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write module");
    let mut cmd = Command::new("spirv-val");
    if env == TargetEnv::Vulkan1_0 {
        cmd.arg("--relax-block-layout");
    }
    let out = cmd
        .arg("--target-env")
        .arg(env.to_string())
        .arg(&path)
        .output()
        .expect("spirv-val runs (apt-get install spirv-tools)");
    assert!(
        out.status.success(),
        "{name}: spirv-val --target-env {env}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles and validates; returns the module.
fn check(name: &str, src: &str, profile: &str) -> Vec<u32> {
    check_env(name, src, profile, TargetEnv::Vulkan1_0, LanguageVersion::V2021)
}

fn check_env(name: &str, src: &str, profile: &str, env: TargetEnv, hv: LanguageVersion) -> Vec<u32> {
    let words = compile_with(name, src, &options(profile, env, hv));
    spirv_val(name, &words, env);
    words
}

fn disassemble(words: &[u32]) -> String {
    spvkit::text::disassemble_to_string(words, &spvkit::text::DisassembleOptions::default())
        .expect("disassembles")
}

/// The rendered errors of a program that must not compile.
fn errors(src: &str, profile: &str) -> String {
    match compile_source("bad.hlsl", src, &options(profile, TargetEnv::Vulkan1_0, LanguageVersion::V2021)) {
        Ok(_) => panic!("compiled, but should not:\n{src}"),
        Err(e) => e.rendered,
    }
}

#[cfg(feature = "llvm")]
mod run {
    use spvkit::run::output::BufferId;
    use spvkit::run::{Job, RunOutput};
    use std::sync::OnceLock;

    fn device() -> &'static std::sync::Mutex<super::vulkan::Vulkan> {
        static VK: OnceLock<std::sync::Mutex<super::vulkan::Vulkan>> = OnceLock::new();
        VK.get_or_init(|| {
            std::sync::Mutex::new(
                super::vulkan::Vulkan::new().expect("a Vulkan device (apt-get install mesa-vulkan-drivers)"),
            )
        })
    }

    /// The shared device.
    pub fn device_for_corpus() -> std::sync::MutexGuard<'static, super::vulkan::Vulkan> {
        device().lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs a compute module on lavapipe with `job` (JSON).
    pub fn lavapipe(words: &[u32], job: &str) -> RunOutput {
        let job = Job::from_json(job).expect("job");
        let vk = device().lock().unwrap_or_else(|e| e.into_inner());
        vk.run(words, &job).expect("runs on lavapipe")
    }

    fn bytes(out: &RunOutput, binding: u32) -> Vec<u8> {
        out.buffers
            .iter()
            .find(|b| b.id == BufferId::Binding { set: 0, binding })
            .map(|b| b.data.bytes.clone())
            .expect("the buffer is in the output")
    }

    /// The 32-bit words of buffer `binding` (set 0).
    pub fn words(out: &RunOutput, binding: u32) -> Vec<u32> {
        bytes(out, binding)
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// Buffer `binding` as floats.
    pub fn floats(out: &RunOutput, binding: u32) -> Vec<f32> {
        words(out, binding).into_iter().map(f32::from_bits).collect()
    }

    /// Buffer `binding` as signed integers.
    pub fn ints(out: &RunOutput, binding: u32) -> Vec<i32> {
        words(out, binding).into_iter().map(|w| w as i32).collect()
    }
}

/// The HLSL corpus (`tests/corpus/hlsl/compute`, or `$SPVKIT_HLSL_CORPUS/compute`): every
/// compute shader with a job and expected buffers compiles, validates and computes its
/// expected buffers on lavapipe.
#[cfg(feature = "llvm")]
#[test]
fn corpus_compute_shaders_compute_their_expected_buffers_on_lavapipe() {
    use spvkit::run::output::{BufferId, OutputBuffer};
    use spvkit::run::{Job, RunOutput};
    let root = std::env::var_os("SPVKIT_HLSL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/hlsl"));
    let dir = root.join("compute");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("no corpus at {}", dir.display());
        return;
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hlsl"))
        .collect();
    paths.sort();
    let (mut passed, mut failures) = (0, Vec::new());
    for path in &paths {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let job_path = dir.join(format!("{stem}.job.json"));
        let expected_path = dir.join(format!("{stem}.expected.json"));
        let (Ok(job_text), Ok(expected_text)) =
            (std::fs::read_to_string(&job_path), std::fs::read_to_string(&expected_path))
        else {
            continue;
        };
        let source = std::fs::read_to_string(path).unwrap_or_default();
        let args_line = source
            .lines()
            .take(5)
            .find_map(|l| l.strip_prefix("// ARGS:"))
            .unwrap_or("-T cs_6_0 -E main");
        let mut args = vec![path.display().to_string()];
        let mut words_iter = args_line.split_whitespace().peekable();
        while let Some(w) = words_iter.next() {
            args.push(w.to_owned());
            if w == "-I" {
                if let Some(d) = words_iter.next() {
                    args.push(root.join(d).display().to_string());
                }
            }
        }
        let parsed = match spvkit::cli::hlsl::parse_args(&args) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{stem}: arguments: {e}"));
                continue;
            }
        };
        let compiled = match spvkit::hlsl::compile_source(&path.display().to_string(), &source, &parsed.options) {
            Ok(c) => c.words,
            Err(e) => {
                failures.push(format!("{stem}: {}", e.rendered.lines().next().unwrap_or("")));
                continue;
            }
        };
        let job = Job::from_json(&job_text).expect("job");
        let expected: serde_json::Value = serde_json::from_str(&expected_text).expect("expected");
        let job_value: serde_json::Value = serde_json::from_str(&job_text).expect("job");
        let mut buffers = Vec::new();
        for b in expected["buffers"].as_array().into_iter().flatten() {
            let set = b["set"].as_u64().unwrap_or(0);
            let binding = b["binding"].as_u64();
            let layout = job_value["buffers"]
                .as_array()
                .and_then(|all| {
                    all.iter().find(|j| j["set"].as_u64().unwrap_or(0) == set && j["binding"].as_u64() == binding)
                })
                .map(|j| j["layout"].clone());
            buffers.push(serde_json::json!({"set": set, "binding": binding, "layout": layout, "data": b["data"]}));
        }
        let packed = Job::from_json(&serde_json::json!({"dispatch": [1, 1, 1], "buffers": buffers}).to_string())
            .expect("expected buffers");
        let want = RunOutput {
            buffers: packed
                .buffers
                .into_iter()
                .map(|b| OutputBuffer { id: BufferId::Binding { set: b.set, binding: b.binding }, data: b.data })
                .collect(),
        };
        let got = {
            let vk = run::device_for_corpus();
            match vk.run(&compiled, &job) {
                Ok(g) => g,
                Err(e) => {
                    failures.push(format!("{stem}: lavapipe: {e}"));
                    continue;
                }
            }
        };
        let got = RunOutput {
            buffers: got.buffers.into_iter().filter(|b| want.buffers.iter().any(|w| w.id == b.id)).collect(),
        };
        let c = &job_value["compare"];
        let tolerance = compute::Tolerance {
            ulps: c["ulps"].as_u64().unwrap_or(0),
            abs: c["abs"].as_f64().unwrap_or(0.0),
            rel: c["rel"].as_f64().unwrap_or(0.0),
        };
        let diffs = compute::differences(&want, &got, tolerance);
        if diffs.is_empty() {
            passed += 1;
        } else {
            failures.push(format!("{stem}:\n    {}", diffs.into_iter().take(4).collect::<Vec<_>>().join("\n    ")));
        }
    }
    println!("corpus: {passed} compute shaders give their expected buffers");
    assert!(failures.is_empty(), "{} failing:\n{}", failures.len(), failures.join("\n"));
}
