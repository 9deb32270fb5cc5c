//! Lowering speed: `spvkit lower --emit bc` against `llvm-spirv-15 -r` (SPIR-V → LLVM bitcode),
//! both as whole processes on the same OpenCL modules: a generated module of over 10 MB and the
//! largest OpenCL corpus modules. Peak memory of both is printed once, as a multiple of the
//! input size. The spv-ir style (`--style spv-ir`) is measured against
//! `llvm-spirv-15 -r --spirv-target-env=SPV-IR` on the generated module.

#[path = "support/big_kernel.rs"]
mod big_kernel;
#[path = "../tests/support/corpus.rs"]
mod corpus;
#[path = "support/process.rs"]
mod process;

use process::{memory_report, peak_rss, run, spvkit_bin, startup_rss};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use std::process::Command;

/// Peak memory of both commands, each with its program's start-up figure.
fn measure_memory(spvkit: &mut Command, llvm_spirv: &mut Command) -> ((u64, u64), (u64, u64)) {
    (
        (
            peak_rss(spvkit),
            startup_rss(spvkit_bin().as_os_str(), &["lower"]),
        ),
        (
            peak_rss(llvm_spirv),
            startup_rss("llvm-spirv-15".as_ref(), &["-r"]),
        ),
    )
}

fn bench_file(c: &mut Criterion, name: &str, path: &Path) {
    let size = std::fs::metadata(path).expect("module").len();
    let out = std::env::temp_dir().join(format!("spvkit-bench-lower-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("scratch dir");
    let ours_out = out.join("spvkit.bc");
    let theirs_out = out.join("llvm-spirv.bc");
    let spvkit = || {
        let mut c = Command::new(spvkit_bin());
        c.args(["lower", "--emit", "bc", "-O0"])
            .arg(path)
            .arg("-o")
            .arg(&ours_out);
        c
    };
    let llvm_spirv = || {
        let mut c = Command::new("llvm-spirv-15");
        c.arg("-r").arg(path).arg("-o").arg(&theirs_out);
        c
    };
    let (ours, theirs) = measure_memory(&mut spvkit(), &mut llvm_spirv());
    println!(
        "{name}: {size} bytes; {} (llvm-spirv-15)",
        memory_report(size, ours, theirs)
    );
    let mut g = c.benchmark_group(format!("lower/{name}"));
    g.throughput(Throughput::Bytes(size));
    g.sample_size(10);
    g.bench_function("spvkit lower (process)", |b| b.iter(|| run(&mut spvkit())));
    g.bench_function("llvm-spirv-15 -r (process)", |b| {
        b.iter(|| run(&mut llvm_spirv()))
    });
    g.finish();
    std::fs::remove_dir_all(&out).ok();
}

/// The spv-ir style against the oracle of that form, `llvm-spirv-15 -r
/// --spirv-target-env=SPV-IR`, both writing bitcode.
fn bench_spv_ir(c: &mut Criterion, name: &str, path: &Path) {
    let size = std::fs::metadata(path).expect("module").len();
    let out = std::env::temp_dir().join(format!("spvkit-bench-spvir-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("scratch dir");
    let ours_out = out.join("spvkit.bc");
    let theirs_out = out.join("llvm-spirv.bc");
    let spvkit = || {
        let mut c = Command::new(spvkit_bin());
        c.args(["lower", "--style", "spv-ir", "--emit", "bc"])
            .arg(path)
            .arg("-o")
            .arg(&ours_out);
        c
    };
    let llvm_spirv = || {
        let mut c = Command::new("llvm-spirv-15");
        c.args(["-r", "--spirv-target-env=SPV-IR"])
            .arg(path)
            .arg("-o")
            .arg(&theirs_out);
        c
    };
    let (ours, theirs) = measure_memory(&mut spvkit(), &mut llvm_spirv());
    println!(
        "{name} (spv-ir): {size} bytes; {} (llvm-spirv-15)",
        memory_report(size, ours, theirs)
    );
    let mut g = c.benchmark_group(format!("lower-spv-ir/{name}"));
    g.throughput(Throughput::Bytes(size));
    g.sample_size(10);
    g.bench_function("spvkit lower --style spv-ir (process)", |b| {
        b.iter(|| run(&mut spvkit()))
    });
    g.bench_function("llvm-spirv-15 -r SPV-IR (process)", |b| {
        b.iter(|| run(&mut llvm_spirv()))
    });
    g.finish();
    std::fs::remove_dir_all(&out).ok();
}

fn lower(c: &mut Criterion) {
    bench_file(c, "big", &big_kernel::path(2000));
    bench_spv_ir(c, "big", &big_kernel::path(2000));
    let mut modules = corpus::build_all();
    modules.retain(|m| m.valid && m.name.starts_with("opencl/"));
    modules.sort_by_key(|m| std::cmp::Reverse(std::fs::metadata(&m.path).map_or(0, |x| x.len())));
    // The largest kernels spvkit lowers (the rest give a LowerError; tests/lower_corpus.rs
    // counts them).
    let lowers = |p: &Path| {
        Command::new(spvkit_bin())
            .args(["lower", "--emit", "bc", "-o", "/dev/null"])
            .arg(p)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    for m in modules.iter().filter(|m| lowers(&m.path)).take(2) {
        bench_file(c, &m.name.replace('/', "_"), &m.path);
    }
}

criterion_group!(benches, lower);
criterion_main!(benches);
