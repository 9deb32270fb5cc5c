//! `spvkit from-llvm` (LLVM → SPIR-V) against `llvm-spirv-15` (the same direction), both as
//! whole processes on the same modules: the bitcode clang-15 makes from a generated OpenCL
//! program of 2,000 kernels (several MB), the SPV-IR llvm-spirv-15 `-r` makes of its SPIR-V,
//! and a small corpus kernel. Peak memory of both is printed once, as a multiple of the input.

#[path = "support/big_kernel.rs"]
mod big_kernel;
#[path = "support/process.rs"]
mod process;

use process::{memory_report, peak_rss, run, spvkit_bin, startup_rss};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::{Path, PathBuf};
use std::process::Command;

fn bench_file(c: &mut Criterion, name: &str, path: &Path) {
    let size = std::fs::metadata(path).expect("module").len();
    let out = std::env::temp_dir().join(format!("spvkit-bench-from-llvm-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("scratch dir");
    let ours_out = out.join("spvkit.spv");
    let theirs_out = out.join("llvm-spirv.spv");
    let spvkit = || {
        let mut c = Command::new(spvkit_bin());
        c.arg("from-llvm").arg(path).arg("-o").arg(&ours_out);
        c
    };
    let llvm_spirv = || {
        let mut c = Command::new("llvm-spirv-15");
        c.arg(path).arg("-o").arg(&theirs_out);
        c
    };
    let ours = (
        peak_rss(&mut spvkit()),
        startup_rss(spvkit_bin().as_os_str(), &["from-llvm"]),
    );
    let theirs = (
        peak_rss(&mut llvm_spirv()),
        startup_rss("llvm-spirv-15".as_ref(), &[]),
    );
    println!(
        "{name}: {size} bytes; {} (llvm-spirv-15)",
        memory_report(size, ours, theirs)
    );
    let mut g = c.benchmark_group(format!("from_llvm/{name}"));
    g.throughput(Throughput::Bytes(size));
    g.sample_size(10);
    g.bench_function("spvkit from-llvm (process)", |b| {
        b.iter(|| run(&mut spvkit()))
    });
    g.bench_function("llvm-spirv-15 (process)", |b| {
        b.iter(|| run(&mut llvm_spirv()))
    });
    g.finish();
    std::fs::remove_dir_all(&out).ok();
}

fn spv_ir(spv: &Path) -> PathBuf {
    let bc = spv.with_extension("spvir.bc");
    if !bc.exists() {
        run(Command::new("llvm-spirv-15")
            .args(["-r", "--spirv-target-env=SPV-IR"])
            .arg(spv)
            .arg("-o")
            .arg(&bc));
    }
    bc
}

fn from_llvm(c: &mut Criterion) {
    let spv = big_kernel::path(2000);
    let bc = spv.with_extension("bc");
    bench_file(c, "big_clang_bc", &bc);
    bench_file(c, "big_spv_ir_bc", &spv_ir(&spv));
}

criterion_group!(benches, from_llvm);
criterion_main!(benches);
