//! Validation speed: `spvkit val` against `spirv-val`, both as whole processes on the same
//! files (a generated module of over 10 MB and the largest corpus modules), plus the library
//! call alone. Peak memory of both processes is printed once (from `getrusage` of the
//! children), as a multiple of the input size.

#[path = "support/big_module.rs"]
mod big_module;
#[path = "../tests/support/corpus.rs"]
mod corpus;
#[path = "support/process.rs"]
mod process;

use process::{peak_rss, run, spvkit_bin};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use std::process::Command;

fn bench_file(c: &mut Criterion, name: &str, path: &Path, env: &str) {
    let bytes = std::fs::read(path).expect("module");
    let words = spvkit::binary::words_from_bytes(&bytes)
        .unwrap()
        .into_owned();
    let target: spvkit::target_env::TargetEnv = env.parse().unwrap();
    assert!(
        spvkit::validate::validate(&words, target).is_ok(),
        "{name} is valid"
    );
    let spvkit = || {
        let mut c = Command::new(spvkit_bin());
        c.args(["val", "--target-env", env]).arg(path);
        c
    };
    let spirv_val = || {
        let mut c = Command::new("spirv-val");
        c.args(["--target-env", env]).arg(path);
        c
    };
    let (ours, theirs) = (peak_rss(&mut spvkit()), peak_rss(&mut spirv_val()));
    println!(
        "{name}: {} bytes; peak memory spvkit {:.1} MB ({:.1}x input), spirv-val {:.1} MB ({:.1}x)",
        bytes.len(),
        ours as f64 / 1e6,
        ours as f64 / bytes.len() as f64,
        theirs as f64 / 1e6,
        theirs as f64 / bytes.len() as f64
    );
    let mut g = c.benchmark_group(format!("validate/{name}"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.bench_function("spvkit val (process)", |b| b.iter(|| run(&mut spvkit())));
    // `SPVKIT_BASELINE=path/to/an/older/spvkit`: that build too, before and after in one run.
    if let Ok(base) = std::env::var("SPVKIT_BASELINE") {
        let mut baseline = Command::new(base);
        baseline.args(["val", "--target-env", env]).arg(path);
        println!(
            "{name}: peak memory baseline {:.1} MB",
            peak_rss(&mut baseline) as f64 / 1e6
        );
        g.bench_function("baseline val (process)", |b| b.iter(|| run(&mut baseline)));
    }
    g.bench_function("spirv-val (process)", |b| b.iter(|| run(&mut spirv_val())));
    g.bench_function("spvkit validate (library)", |b| {
        b.iter(|| black_box(spvkit::validate::validate(&words, target)))
    });
    g.finish();
}

fn validate(c: &mut Criterion) {
    let (big, _) = big_module::binary(10 << 20);
    bench_file(c, "big", &big, "vulkan1.0");
    let mut modules = corpus::build_all();
    modules.retain(|m| m.valid);
    modules.sort_by_key(|m| std::cmp::Reverse(std::fs::metadata(&m.path).map_or(0, |x| x.len())));
    for m in modules.iter().take(2) {
        bench_file(c, &m.name.replace('/', "_"), &m.path, &m.target_env);
    }
}

criterion_group!(benches, validate);
criterion_main!(benches);
