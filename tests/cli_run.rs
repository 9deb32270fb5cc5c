//! `spvkit run` on the command line: argument and job errors, reported with their place.
#![cfg(all(feature = "run", feature = "cli"))]

use std::process::Command;

fn spvkit_run(spv: &str, job_text: &str) -> (i32, String, String) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-run");
    std::fs::create_dir_all(&dir).unwrap();
    let job = dir.join(format!("{}.job.json", job_text.len()));
    std::fs::write(&job, job_text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .args(["run", spv, "--job"])
        .arg(&job)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn saxpy_spv() -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-run");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("saxpy.spv");
    let src = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/compute/saxpy.comp"
    );
    let status = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", src, "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success());
    out.to_string_lossy().into_owned()
}

#[test]
fn job_errors_name_the_file_key_and_index() {
    let spv = saxpy_spv();
    let (code, stdout, stderr) = spvkit_run(
        &spv,
        r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "data": [1, "one"]}]}"#,
    );
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains(".job.json: error: buffers[0].data[1]: expected a number, \"nan\", \"inf\" or \"-inf\", found \"one\""),
        "{stderr}"
    );
    let (code, _, stderr) = spvkit_run(&spv, r#"{"dispatch": [1], "spec_constants": {"9": 1}}"#);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("spec_constants.9: the module has no constant with this SpecId"),
        "{stderr}"
    );
}

#[test]
fn a_missing_input_is_an_error() {
    let (code, _, stderr) = spvkit_run("/nonexistent.spv", r#"{"dispatch": [1]}"#);
    assert_eq!(code, 1);
    assert!(stderr.starts_with("/nonexistent.spv: error:"), "{stderr}");
}

/// `hlsl2spirv`'s optimization levels as DXC's: `-fcgl` writes the module as generated, `-O0`
/// and `-Od` legalize only (this shader needs no legalization, so they equal `-fcgl`), the
/// default `-O3` and `-O1` run `spvkit opt -O`, and `-Oconfig=` runs the passes it lists.
/// Every level's module passes spirv-val and computes the buffer Rust computes.
#[test]
fn hlsl2spirv_optimization_levels_compute_the_same_buffer() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-run-levels");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("levels.hlsl");
    std::fs::write(
        &src,
        r#"
RWStructuredBuffer<int> buf : register(u0);
struct Pair { int a; int b; };
Pair step(Pair p, int i) {
    Pair q;
    q.a = p.a + i * 3;
    q.b = (i % 2 == 0) ? p.b - i : p.b + 2 * i;
    return q;
}
int twice(int x) { return x + x; }
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Pair p = { (int)id.x, 7 };
    for (int i = 0; i < 5; ++i) {
        p = step(p, i);
        if (false) { p.a = 1000; }
    }
    buf[id.x] = twice(p.a) + p.b * 1;
}
"#,
    )
    .unwrap();
    // Rust's answer, thread by thread.
    let expected: Vec<i64> = (0..4)
        .map(|x: i64| {
            let (mut a, mut b) = (x, 7);
            for i in 0..5 {
                a += i * 3;
                b = if i % 2 == 0 { b - i } else { b + 2 * i };
            }
            2 * a + b
        })
        .collect();
    let job = r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["i32"], "data": [0, 0, 0, 0]}]}"#;
    let mut counts = Vec::new();
    for (tag, flags) in [
        ("fcgl", &["-fcgl"][..]),
        ("O0", &["-O0"]),
        ("Od", &["-Od"]),
        ("default", &[]),
        ("O1", &["-O1"]),
        (
            "config",
            &["-Oconfig=--inline-entry-points-exhaustive,--ssa-rewrite"],
        ),
    ] {
        let spv = dir.join(format!("{tag}.spv"));
        let (got, text) = compile_and_run(&src, &spv, flags, job, tag);
        assert_eq!(got, expected, "{tag}");
        counts.push((
            tag,
            text.lines().filter(|l| l.contains("Op")).count(),
            text.contains("OpFunctionCall"),
        ));
    }
    let by = |tag: &str| *counts.iter().find(|c| c.0 == tag).unwrap();
    // -O0 and -Od change nothing here; -fcgl keeps the calls.
    assert_eq!(by("O0").1, by("fcgl").1);
    assert_eq!(by("Od").1, by("fcgl").1);
    assert!(by("fcgl").2);
    // -O3 (the default) and -O1 inline and shrink; -Oconfig= inlines.
    assert!(
        !by("default").2 && !by("O1").2 && !by("config").2,
        "{counts:?}"
    );
    assert_eq!(by("default").1, by("O1").1);
    assert!(
        by("default").1 * 2 < by("fcgl").1,
        "-O3 does not shrink the module much: {counts:?}"
    );
}

/// `[unroll]` loops with constant trip counts become copies of their body under `-O3` (and
/// `-Oconfig=--loop-unroll`), nested ones too, while a loop without the attribute and one
/// whose trip count depends on the input stay loops; every form computes what Rust computes.
#[test]
fn unroll_loops_become_copies_and_compute_the_same_buffer() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-run-unroll");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("unroll.hlsl");
    std::fs::write(
        &src,
        r#"
RWStructuredBuffer<int> buf : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int acc = (int)id.x;
    [unroll] for (int i = 0; i < 4; ++i) {
        if (acc % 2 == 0) acc += i * 3; else acc -= i;
        [unroll] for (int j = 1; j < 3; j++) acc = acc * 2 + j;
    }
    [unroll] for (int k = 10; k > 0; k -= 4) acc ^= k;
    for (int n = 0; n < 3; ++n) acc += n;
    [unroll] for (uint m = 0; m < id.x; ++m) acc += 7;
    buf[id.x] = acc;
}
"#,
    )
    .unwrap();
    let expected: Vec<i64> = (0..4i64)
        .map(|x| {
            let mut acc: i32 = x as i32;
            for i in 0..4 {
                if acc % 2 == 0 {
                    acc += i * 3
                } else {
                    acc -= i
                }
                for j in 1..3 {
                    acc = acc * 2 + j;
                }
            }
            let mut k = 10;
            while k > 0 {
                acc ^= k;
                k -= 4;
            }
            for n in 0..3 {
                acc += n;
            }
            acc += 7 * x as i32;
            i64::from(acc)
        })
        .collect();
    let job = r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["i32"], "data": [0, 0, 0, 0]}]}"#;
    let mut loops = Vec::new();
    for (tag, flags) in [
        ("fcgl", &["-fcgl"][..]),
        ("default", &[]),
        (
            "config",
            &["-Oconfig=--ssa-rewrite,--merge-blocks,--loop-unroll"],
        ),
    ] {
        let spv = dir.join(format!("{tag}.spv"));
        let (got, text) = compile_and_run(&src, &spv, flags, job, tag);
        assert_eq!(got, expected, "{tag}");
        loops.push((tag, text.matches("OpLoopMerge").count()));
    }
    // Five loops as written (the nested one once); the plain loop and the one bounded by the
    // input stay after unrolling.
    assert_eq!(loops, [("fcgl", 5), ("default", 2), ("config", 2)]);
}

/// Compiles `src` with `hlsl2spirv` and `flags` into `spv`, checks it with spirv-val, runs
/// `job` under `spvkit run`: the first buffer's numbers and the disassembly.
fn compile_and_run(
    src: &std::path::Path,
    spv: &std::path::Path,
    flags: &[&str],
    job: &str,
    tag: &str,
) -> (Vec<i64>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hlsl2spirv"))
        .arg(src)
        .args(["-T", "cs_6_0", "-Fo"])
        .arg(spv)
        .args(flags)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tag}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let val = Command::new("spirv-val").arg(spv).output().unwrap();
    assert!(
        val.status.success(),
        "{tag}: spirv-val: {}",
        String::from_utf8_lossy(&val.stderr)
    );
    let (code, stdout, stderr) = spvkit_run(&spv.to_string_lossy(), job);
    assert_eq!(code, 0, "{tag}: {stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let got: Vec<i64> = json["buffers"][0]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let text = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .arg("dis")
        .arg(spv)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    (got, text)
}
