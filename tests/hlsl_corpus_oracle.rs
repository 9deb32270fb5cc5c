//! Checks the HLSL corpus itself, independently of spvkit's frontend:
//! - every valid shader marked `GLSLANG: same` or `GLSLANG: differs` compiles with
//!   glslangValidator and the module passes spirv-val in the shader's environment;
//! - every compute shader marked `GLSLANG: same` runs on lavapipe (the ash runner) with its job
//!   and writes exactly the buffers of its `<stem>.expected.json` (computed by
//!   `tests/corpus/hlsl/tools/expected.py` with DXC's semantics), which proves the expected
//!   values by a second implementation;
//! - the corpus has the size and shape the HLSL issue asks for, and every compute shader has
//!   its job and expected buffers.
#![cfg(feature = "hlsl")]

#[path = "support/compute.rs"]
#[cfg(feature = "run")]
mod compute;
#[path = "support/hlsl_corpus.rs"]
mod hlsl_corpus;
#[path = "support/vulkan.rs"]
#[cfg(feature = "run")]
mod vulkan;

use hlsl_corpus::{Category, Glslang};

#[test]
fn the_corpus_has_the_required_shape() {
    let all = hlsl_corpus::load_all();
    let count = |c: Category| all.iter().filter(|e| e.category == c).count();
    let (cs, vs, ps, bad) = (
        count(Category::Compute),
        count(Category::Vertex),
        count(Category::Pixel),
        count(Category::Invalid),
    );
    println!("corpus: {cs} compute, {vs} vertex, {ps} pixel, {bad} invalid");
    assert!(cs >= 80, "{cs} compute shaders");
    assert!(vs >= 40, "{vs} vertex shaders");
    assert!(ps >= 40, "{ps} pixel shaders");
    assert!(cs + vs + ps >= 160, "{} valid shaders", cs + vs + ps);
    assert!(bad >= 45, "{bad} invalid programs");
    let mut problems = Vec::new();
    for e in &all {
        let stage = e.args.profile.get(..2).unwrap_or("");
        let want = match e.category {
            Category::Compute => "cs",
            Category::Vertex => "vs",
            Category::Pixel => "ps",
            Category::Invalid => stage,
        };
        if stage != want {
            problems.push(format!("{}: profile {}", e.name, e.args.profile));
        }
        if e.category == Category::Compute
            && !(e.job_path().is_file() && e.expected_path().is_file())
        {
            problems.push(format!("{}: no .job.json or .expected.json", e.name));
        }
        for c in &e.checks {
            if let Err(err) = hlsl_corpus::check_regex(c) {
                problems.push(format!("{}: {err}", e.name));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every compute shader's job and expected buffers are what its model in
/// `tests/corpus/hlsl/tools/expected.py` (DXC's semantics, no compiler) gives, and every
/// compute shader has a model.
#[test]
fn expected_buffers_come_from_the_independent_models() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/hlsl/tools/expected.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg("--check")
        .output()
        .expect("python3 runs (apt-get install python3)");
    assert!(
        out.status.success(),
        "expected.py --check:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn glslang_compiles_and_spirv_val_accepts_every_shader_glslang_supports() {
    let all = hlsl_corpus::load_all();
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in all.iter().filter(|e| e.category != Category::Invalid) {
        if matches!(e.glslang, Glslang::Fails(_)) {
            continue;
        }
        checked += 1;
        match hlsl_corpus::glslang(e) {
            Ok(words) => {
                if let Err(err) = hlsl_corpus::spirv_val(e, &words, "glslang") {
                    failures.push(format!("{}: {err}", e.name));
                }
            }
            Err(err) => failures.push(format!("{}: {err}", e.name)),
        }
    }
    println!(
        "glslang + spirv-val: {} of {checked} pass",
        checked - failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A shader marked `GLSLANG: fails` must really be rejected by glslang, or glslang's module
/// must fail spirv-val (else the mark hides a check the oracle could make).
#[test]
fn shaders_marked_glslang_fails_are_rejected_by_glslang() {
    let all = hlsl_corpus::load_all();
    let wrong: Vec<String> = all
        .iter()
        .filter(|e| e.category != Category::Invalid && matches!(e.glslang, Glslang::Fails(_)))
        .filter(|e| {
            hlsl_corpus::glslang(e)
                .is_ok_and(|words| hlsl_corpus::spirv_val(e, &words, "glslang").is_ok())
        })
        .map(|e| e.name.clone())
        .collect();
    assert!(
        wrong.is_empty(),
        "marked `GLSLANG: fails` but glslang compiles them: {wrong:?}"
    );
}

#[cfg(feature = "run")]
#[test]
fn lavapipe_gives_the_expected_buffers_for_every_compute_shader_glslang_compiles_alike() {
    let vk = vulkan::Vulkan::new().expect("a Vulkan device (apt-get install mesa-vulkan-drivers)");
    let all = hlsl_corpus::load_all();
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut skipped = Vec::new();
    for e in all.iter().filter(|e| e.category == Category::Compute) {
        if e.glslang != Glslang::Same {
            skipped.push(e.name.as_str());
            continue;
        }
        ran += 1;
        let result = hlsl_corpus::glslang(e).and_then(|words| {
            let (job, tolerance, want) = hlsl_corpus::expect::load(e)?;
            let got = vk
                .run(&words, &job)
                .map_err(|err| format!("lavapipe: {err}"))?;
            let diffs = compute::differences(&want, &got, tolerance);
            if diffs.is_empty() {
                Ok(())
            } else {
                Err(diffs.join("\n    "))
            }
        });
        if let Err(err) = result {
            failures.push(format!("{}:\n    {err}", e.name));
        }
    }
    println!(
        "lavapipe: {} of {ran} compute shaders give the expected buffers; not run (glslang \
         differs or fails): {}",
        ran - failures.len(),
        skipped.join(", ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[path = "../benches/support/big_hlsl.rs"]
mod big_hlsl;

/// The benchmark's generated shader is valid HLSL in the scope as far as glslang can
/// tell: it compiles and the module passes spirv-val.
#[test]
fn the_generated_benchmark_shader_compiles_with_glslang() {
    let source = big_hlsl::big_compute_shader(12);
    let path = hlsl_corpus::out_dir().join("big_generated.hlsl");
    std::fs::write(&path, &source).expect("write the generated shader");
    let entry = hlsl_corpus::Entry {
        category: Category::Compute,
        name: "generated/big_generated.hlsl".to_owned(),
        path,
        text: source,
        args: hlsl_corpus::Args::parse("-T cs_6_0 -E main").expect("args"),
        glslang: Glslang::Same,
        checks: Vec::new(),
        errors: Vec::new(),
    };
    let words = hlsl_corpus::glslang(&entry).expect("glslang compiles the generated shader");
    hlsl_corpus::spirv_val(&entry, &words, "glslang").expect("spirv-val accepts it");
    let len = big_hlsl::big_compute_shader(240).len();
    assert!(
        (180_000..=220_000).contains(&len),
        "{len} bytes at 240 functions, want ~200 KB"
    );
}

/// The CHECK patterns are about DXC's output, so they are not asserted on glslang's; this lists
/// the ones glslang's module does not match either (expected for DXC-specific choices such as
/// OpVectorTimesMatrix for mul(M, v), worth a look otherwise).
#[test]
fn report_check_patterns_glslang_does_not_match() {
    let all = hlsl_corpus::load_all();
    let mut matched = 0;
    let mut unmatched = Vec::new();
    for e in all.iter().filter(|e| !e.checks.is_empty()) {
        let Ok(words) = hlsl_corpus::glslang(e) else {
            continue;
        };
        let Ok(dis) = hlsl_corpus::spirv_dis(e, &words, "glslang") else {
            continue;
        };
        match hlsl_corpus::run_checks(&e.checks, &dis) {
            Ok(()) => matched += 1,
            Err(err) => unmatched.push(format!("{}: {err}", e.name)),
        }
    }
    println!(
        "CHECK patterns on glslang's modules: {matched} shaders match, {} do not:",
        unmatched.len()
    );
    for u in &unmatched {
        println!("  {u}");
    }
}
