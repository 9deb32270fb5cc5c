//! Whole-process text codec timings: `spvkit dis`/`as` against `spirv-dis`/`spirv-as` on the
//! same files in the same run (the generated 10 MB module and the corpus). With
//! `SPVKIT_BASELINE=path/to/an/older/spvkit`, that build is timed in the same groups too, so a
//! change is measured before and after in one run.

#[path = "support/big_module.rs"]
mod big_module;
#[path = "../tests/support/corpus.rs"]
mod corpus;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn run(program: &str, args: &[&str], input: &Path) {
    let st = Command::new(program)
        .args(args)
        .arg(input)
        .stdout(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        st.success(),
        "{program} {args:?} {} failed",
        input.display()
    );
}

fn bench_files(c: &mut Criterion, name: &str, binaries: &[PathBuf], texts: &[PathBuf]) {
    let spvkit = env!("CARGO_BIN_EXE_spvkit");
    let bin_bytes: u64 = binaries
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum();
    let mut g = c.benchmark_group(format!("dis/{name}"));
    g.throughput(Throughput::Bytes(bin_bytes));
    g.sample_size(10);
    g.bench_function("spvkit dis", |b| {
        b.iter(|| {
            binaries
                .iter()
                .for_each(|p| run(spvkit, &["dis", "-o", "/dev/null"], p))
        })
    });
    if let Some(base) = baseline() {
        g.bench_function("baseline dis", |b| {
            b.iter(|| {
                binaries
                    .iter()
                    .for_each(|p| run(&base, &["dis", "-o", "/dev/null"], p))
            })
        });
    }
    g.bench_function("spirv-dis", |b| {
        b.iter(|| {
            binaries
                .iter()
                .for_each(|p| run("spirv-dis", &["-o", "/dev/null"], p))
        })
    });
    g.finish();
    let mut g = c.benchmark_group(format!("as/{name}"));
    g.throughput(Throughput::Bytes(bin_bytes));
    g.sample_size(10);
    g.bench_function("spvkit as", |b| {
        b.iter(|| {
            texts.iter().for_each(|p| {
                run(
                    spvkit,
                    &["as", "--target-env", "spv1.6", "-o", "/dev/null"],
                    p,
                )
            })
        })
    });
    if let Some(base) = baseline() {
        g.bench_function("baseline as", |b| {
            b.iter(|| {
                texts.iter().for_each(|p| {
                    run(
                        &base,
                        &["as", "--target-env", "spv1.6", "-o", "/dev/null"],
                        p,
                    )
                })
            })
        });
    }
    g.bench_function("spirv-as", |b| {
        b.iter(|| {
            texts.iter().for_each(|p| {
                run(
                    "spirv-as",
                    &["--target-env", "spv1.6", "-o", "/dev/null"],
                    p,
                )
            })
        })
    });
    g.finish();
}

/// An older `spvkit` to time beside this one (`SPVKIT_BASELINE`).
fn baseline() -> Option<String> {
    std::env::var("SPVKIT_BASELINE").ok()
}

/// spirv-dis's text of each binary, written next to it, for the assemblers to read.
fn texts_of(binaries: &[PathBuf]) -> Vec<PathBuf> {
    binaries
        .iter()
        .map(|p| {
            let t = p.with_extension("spvasm.dis");
            if !t.exists() {
                let st = Command::new("spirv-dis")
                    .arg(p)
                    .arg("-o")
                    .arg(&t)
                    .status()
                    .expect("spirv-dis");
                assert!(st.success());
            }
            t
        })
        .collect()
}

fn text(c: &mut Criterion) {
    let (big, _) = big_module::binary(10 << 20);
    let big = vec![big];
    bench_files(c, "big", &big, &texts_of(&big));
    let corpus: Vec<PathBuf> = corpus::build_all().into_iter().map(|m| m.path).collect();
    bench_files(c, "corpus", &corpus, &texts_of(&corpus));
}

criterion_group!(benches, text);
criterion_main!(benches);
