//! Structs in Kernel modules have C's natural layout (SPIR-V's `CPacked` exists because they
//! are not packed): a struct argument and a buffer of structs written by a host in C layout,
//! padding included, reach an OpenCL C kernel (clang-15, then llvm-spirv-15 or spvkit's own
//! from-llvm) under `spvkit run` with every member where C puts it.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/opencl.rs"]
mod opencl;

use opencl::{clang, run_ok as run};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const SOURCE: &str = r#"
typedef struct { char tag; long big; float f; short s; } Rec;   // C: 0, 8, 16, 20; size 24
kernel void sum(global const Rec *recs, Rec extra, global long *out) {
    size_t i = get_global_id(0);
    Rec r = recs[i];
    out[i] = r.tag + r.big + (long)r.f + r.s + extra.tag * 1000 + extra.big;
}
"#;

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run_kernel_structs");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One record in C layout as job data: `tag`, 7 bytes of padding, `big`, `f`, `s`, 2 bytes of
/// padding.
fn record(tag: i64, big: i64, f: f64, s: i64) -> Vec<Value> {
    let mut v = vec![Value::from(tag)];
    v.extend(std::iter::repeat_n(Value::from(0), 7));
    v.extend([
        Value::from(big),
        Value::from(f),
        Value::from(s),
        0.into(),
        0.into(),
    ]);
    v
}

const LAYOUT: [&str; 13] = [
    "i8", "u8", "u8", "u8", "u8", "u8", "u8", "u8", "i64", "f32", "i16", "u8", "u8",
];

#[test]
fn kernel_structs_have_c_layout_under_spvkit_run() {
    let dir = out_dir();
    let (cl, bc) = (dir.join("structs.cl"), dir.join("structs.bc"));
    std::fs::write(&cl, SOURCE).unwrap();
    clang(&cl, "spir64-unknown-unknown", ["-O2"], &bc).unwrap();
    let theirs = dir.join("structs.llvm-spirv.spv");
    run(Command::new("llvm-spirv-15")
        .arg(&bc)
        .arg("-o")
        .arg(&theirs));
    let ours = dir.join("structs.spvkit.spv");
    let spvkit = || Command::new(env!("CARGO_BIN_EXE_spvkit"));
    run(spvkit().arg("from-llvm").arg(&bc).arg("-o").arg(&ours));
    let recs: Vec<(i64, i64, f64, i64)> = (0..8)
        .map(|i| (i - 3, 10_000_000_000 * i, 0.5 + i as f64, -7 * i))
        .collect();
    let data: Vec<Value> = recs
        .iter()
        .flat_map(|&(t, b, f, s)| record(t, b, f, s))
        .collect();
    let extra = record(2, 40, 0.0, 0);
    let job = serde_json::json!({
        "entry": "sum", "dispatch": [2, 1, 1], "local_size": [4, 1, 1], "work_dim": 1,
        "args": [
            {"kind": "buffer", "layout": LAYOUT, "data": data},
            {"kind": "struct", "layout": LAYOUT, "value": extra},
            {"kind": "buffer", "layout": ["i64"], "data": [0, 0, 0, 0, 0, 0, 0, 0]},
        ],
    });
    let job_path = dir.join("job.json");
    std::fs::write(&job_path, job.to_string()).unwrap();
    let want: Vec<i64> = recs
        .iter()
        .map(|&(t, b, f, s)| t + b + f as i64 + s + 2 * 1000 + 40)
        .collect();
    for spv in [&theirs, &ours] {
        let out = run(spvkit().arg("run").arg(spv).arg("--job").arg(&job_path));
        let v: Value = serde_json::from_slice(&out).unwrap();
        let out = v["buffers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["arg"] == 2)
            .expect("argument 2's buffer");
        let got: Vec<i64> = out["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        assert_eq!(got, want, "{}", spv.display());
    }
}
