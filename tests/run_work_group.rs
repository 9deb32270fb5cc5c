//! Work-group collectives under `spvkit run`: OpenCL C's `work_group_reduce_*`,
//! `work_group_scan_{inclusive,exclusive}_*`, `work_group_broadcast` (1-D and 2-D local ids),
//! `work_group_all` and `work_group_any` on `int`, `uint`, `long`, `float` and `double`,
//! compiled by clang-15 and llvm-spirv-15 (OpGroup* with Workgroup scope), give the values
//! computed here in Rust, for every invocation of several workgroups, with one worker thread
//! and with several.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/opencl.rs"]
mod opencl;

use opencl::{clang, run_ok as run};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const SOURCE: &str = r#"
__kernel void collectives(__global const int *in, __global const float *fin,
                          __global const double *din, __global int *out,
                          __global uint *uout, __global long *lout,
                          __global float *fout, __global double *dout) {
    size_t g = get_global_id(0);
    int x = in[g];
    uint u = (uint)x;
    long w = (long)x * 3000000000L;
    float f = fin[g];
    double d = din[g];
    out[g * 8 + 0] = work_group_reduce_add(x);
    out[g * 8 + 1] = work_group_reduce_min(x);
    out[g * 8 + 2] = work_group_reduce_max(x);
    out[g * 8 + 3] = work_group_scan_inclusive_add(x);
    out[g * 8 + 4] = work_group_scan_exclusive_max(x);
    out[g * 8 + 5] = work_group_broadcast(x, 3);
    out[g * 8 + 6] = work_group_all(x > -90);
    out[g * 8 + 7] = work_group_any(x == 7);
    uout[g * 2 + 0] = work_group_reduce_min(u);
    uout[g * 2 + 1] = work_group_scan_exclusive_min(u);
    lout[g * 2 + 0] = work_group_reduce_add(w);
    lout[g * 2 + 1] = work_group_scan_inclusive_min(w);
    fout[g * 3 + 0] = work_group_reduce_add(f);
    fout[g * 3 + 1] = work_group_scan_exclusive_min(f);
    fout[g * 3 + 2] = work_group_broadcast(f, 0);
    dout[g * 2 + 0] = work_group_scan_inclusive_add(d);
    dout[g * 2 + 1] = work_group_reduce_max(d);
}

__kernel void broadcast_2d(__global const int *in, __global int *out) {
    size_t g = get_global_linear_id();
    out[g] = work_group_broadcast(in[g], 2, 1);
}
"#;

/// Workgroups of this many invocations, this many of them.
const LOCAL: usize = 16;
const GROUPS: usize = 3;

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run_work_group");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The kernels, compiled by clang-15 and llvm-spirv-15 once for every test (tests run in
/// parallel: writing the same files from two of them raced).
fn spirv() -> PathBuf {
    static SPV: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SPV.get_or_init(compile_kernels).clone()
}

fn compile_kernels() -> PathBuf {
    let dir = out_dir();
    let (cl, bc, spv) = (
        dir.join("collectives.cl"),
        dir.join("collectives.bc"),
        dir.join("collectives.spv"),
    );
    std::fs::write(&cl, SOURCE).unwrap();
    clang(&cl, "spir64-unknown-unknown", ["-O2"], &bc).unwrap();
    run(Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.0")
        .arg(&bc)
        .arg("-o")
        .arg(&spv));
    let dis = run(Command::new("spirv-dis").arg(&spv));
    assert!(
        String::from_utf8_lossy(&dis).contains("OpGroupIAdd"),
        "llvm-spirv-15 wrote no work-group collective"
    );
    spv
}

/// Runs `job` with `threads` workers; the `data` of each argument buffer, in order.
fn run_job(spv: &Path, job: &serde_json::Value, threads: u32) -> Vec<Vec<Value>> {
    // One file per call: parallel tests must not share it.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = out_dir().join(format!("job{threads}-{n}.json"));
    std::fs::write(&path, job.to_string()).unwrap();
    let out = run(Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .arg("run")
        .arg(spv)
        .arg("--job")
        .arg(&path)
        .args(["--threads", &threads.to_string()]));
    let v: Value = serde_json::from_slice(&out).unwrap();
    v["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["data"].as_array().unwrap().clone())
        .collect()
}

fn buffer(layout: &str, data: Vec<Value>) -> Value {
    serde_json::json!({"kind": "buffer", "layout": [layout], "data": data})
}

fn zeros(layout: &str, n: usize) -> Value {
    buffer(layout, vec![Value::from(0); n])
}

fn ints(v: &[Value]) -> Vec<i64> {
    v.iter().map(|x| x.as_i64().unwrap()).collect()
}

/// Numbers, and infinities as the runner prints them ("inf", "-inf").
fn floats(v: &[Value]) -> Vec<f64> {
    v.iter()
        .map(|x| match x.as_str() {
            Some(s) => s.parse().unwrap(),
            None => x.as_f64().unwrap(),
        })
        .collect()
}

#[test]
fn work_group_collectives_compute_what_sequential_loops_do() {
    let spv = spirv();
    let n = LOCAL * GROUPS;
    // Values with negatives, a 7 in the second group only, and a float sum that depends on
    // the order of additions.
    let x: Vec<i32> = (0..n as i32).map(|i| (i * 37 + 11) % 101 - 50).collect();
    let x: Vec<i32> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if i == LOCAL + 5 {
                7
            } else if v == 7 {
                8
            } else {
                v
            }
        })
        .collect();
    let f: Vec<f32> = (0..n)
        .map(|i| {
            if i % LOCAL == 0 {
                16_777_216.0
            } else {
                (i % 5) as f32 * 0.5
            }
        })
        .collect();
    let d: Vec<f64> = (0..n).map(|i| (i as f64).sin() * 1e3).collect();
    let job = serde_json::json!({
        "entry": "collectives", "dispatch": [GROUPS, 1, 1], "local_size": [LOCAL, 1, 1],
        "work_dim": 1,
        "args": [
            buffer("i32", x.iter().map(|&v| v.into()).collect()),
            buffer("f32", f.iter().map(|&v| f64::from(v).into()).collect()),
            buffer("f64", d.iter().map(|&v| v.into()).collect()),
            zeros("i32", n * 8), zeros("u32", n * 2), zeros("i64", n * 2),
            zeros("f32", n * 3), zeros("f64", n * 2),
        ],
    });
    // Fibers (the CLI's default here) with one and four workers, then thread teams.
    let threads_mode = {
        let words: Vec<u32> = std::fs::read(&spv)
            .unwrap()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let job = spvkit::run::Job::from_json(&job.to_string()).unwrap();
        let options = spvkit::run::RunOptions {
            threads: 2,
            barrier_mode: spvkit::run::BarrierMode::Threads,
            ..Default::default()
        };
        let out = spvkit::run::run_spirv(&words, &job, &options).unwrap();
        let v: Value = serde_json::from_str(&out.to_json()).unwrap();
        v["buffers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["data"].as_array().unwrap().clone())
            .collect::<Vec<_>>()
    };
    for (threads, got) in [
        (1, run_job(&spv, &job, 1)),
        (4, run_job(&spv, &job, 4)),
        (2, threads_mode),
    ] {
        let (out, uout, lout) = (ints(&got[3]), ints(&got[4]), ints(&got[5]));
        let (fout, dout) = (floats(&got[6]), floats(&got[7]));
        for grp in 0..GROUPS {
            let r = grp * LOCAL..(grp + 1) * LOCAL;
            let xs = &x[r.clone()];
            let us: Vec<u32> = xs.iter().map(|&v| v as u32).collect();
            let ws: Vec<i64> = xs.iter().map(|&v| i64::from(v) * 3_000_000_000).collect();
            for (k, g) in r.clone().enumerate() {
                let sum = xs.iter().fold(0i32, |a, &b| a.wrapping_add(b));
                let want = [
                    sum,
                    *xs.iter().min().unwrap(),
                    *xs.iter().max().unwrap(),
                    xs[..=k].iter().sum(),
                    xs[..k].iter().copied().max().unwrap_or(i32::MIN),
                    xs[3],
                    i32::from(xs.iter().all(|&v| v > -90)),
                    i32::from(xs.contains(&7)),
                ];
                let want: Vec<i64> = want.iter().map(|&v| i64::from(v)).collect();
                assert_eq!(
                    &out[g * 8..g * 8 + 8],
                    &want[..],
                    "int, invocation {g}, {threads} threads"
                );
                let uwant = [
                    i64::from(*us.iter().min().unwrap()),
                    i64::from(us[..k].iter().copied().min().unwrap_or(u32::MAX)),
                ];
                assert_eq!(&uout[g * 2..g * 2 + 2], &uwant, "uint, invocation {g}");
                let lwant = [
                    ws.iter().fold(0i64, |a, &b| a.wrapping_add(b)),
                    *ws[..=k].iter().min().unwrap(),
                ];
                assert_eq!(&lout[g * 2..g * 2 + 2], &lwant, "long, invocation {g}");
                let fs = &f[r.clone()];
                let fwant = [
                    f64::from(fs.iter().fold(0f32, |a, &b| a + b)),
                    f64::from(fs[..k].iter().copied().fold(f32::INFINITY, f32::min)),
                    f64::from(fs[0]),
                ];
                assert_eq!(&fout[g * 3..g * 3 + 3], &fwant, "float, invocation {g}");
                let ds = &d[r.clone()];
                let dwant = [
                    ds[..=k].iter().fold(0f64, |a, &b| a + b),
                    ds.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ];
                assert_eq!(&dout[g * 2..g * 2 + 2], &dwant, "double, invocation {g}");
            }
        }
    }
}

#[test]
fn a_two_dimensional_broadcast_takes_the_named_invocation() {
    let spv = spirv();
    // Workgroups of 4 × 3; (2, 1) is local index 6 of each.
    let n = 4 * 3 * 2 * 2;
    let job = serde_json::json!({
        "entry": "broadcast_2d", "dispatch": [2, 2, 1], "local_size": [4, 3, 1], "work_dim": 2,
        "args": [
            buffer("i32", (0..n).map(|i| Value::from(i * 10)).collect()),
            zeros("i32", n),
        ],
    });
    let got = ints(&run_job(&spv, &job, 2)[1]);
    // get_global_linear_id runs along x over the whole grid (8 wide): invocation (2, 1) of
    // the workgroup at (gx, gy) is global (4 gx + 2, 3 gy + 1).
    for (i, v) in got.iter().enumerate() {
        let (gx, gy) = ((i % 8) / 4, (i / 8) / 3);
        let source = (3 * gy + 1) * 8 + 4 * gx + 2;
        assert_eq!(*v, (source * 10) as i64, "invocation {i}");
    }
}
