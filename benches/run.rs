//! `spvkit run` against lavapipe on the same SPIR-V and the same job: SAXPY over 16M floats
//! (`tests/corpus/compute/saxpy.comp`) and a 512 × 512 matmul (`tiled_matmul.comp`).
//!
//! (`scripts/bench-run.sh` times the same two as whole processes, `spvkit run` against
//! `examples/vkrun.rs`, JSON included.)
//!
//! Both sides are measured in-library and cold, from SPIR-V words and a parsed job to the
//! buffers read back: lavapipe creates its instance, device, pipeline and buffers each
//! iteration; spvkit deserialises, lowers, JIT-compiles and allocates each iteration. Neither
//! pays process start-up or JSON. Until the lowering is merged the spvkit side reports that it
//! is unavailable and only lavapipe is measured.

#[path = "../tests/support/compute.rs"]
mod compute;
#[path = "../tests/support/vulkan.rs"]
mod vulkan;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use spvkit::run::job::{BufferKind, Job, JobBuffer, TypedBytes};
use spvkit::run::layout::{Layout, ScalarType};
use spvkit::run::{run_spirv, RunOptions};
use std::time::Duration;

fn f32_buffer(binding: u32, values: impl Iterator<Item = f32>) -> JobBuffer {
    JobBuffer {
        set: 0,
        binding,
        index: 0,
        kind: BufferKind::Storage,
        data: TypedBytes {
            layout: Layout(vec![ScalarType::F32]),
            bytes: values.flat_map(f32::to_le_bytes).collect(),
        },
    }
}

fn push(values: &[(ScalarType, u32)]) -> TypedBytes {
    TypedBytes {
        layout: Layout(values.iter().map(|v| v.0).collect()),
        bytes: values.iter().flat_map(|v| v.1.to_le_bytes()).collect(),
    }
}

fn saxpy_job(n: u32) -> Job {
    Job {
        dispatch: [n.div_ceil(256), 1, 1],
        push_constants: Some(push(&[
            (ScalarType::F32, 2.5f32.to_bits()),
            (ScalarType::U32, n),
        ])),
        buffers: vec![
            f32_buffer(0, (0..n).map(|i| (i % 1000) as f32 * 0.5)),
            f32_buffer(1, (0..n).map(|i| (i % 7) as f32)),
        ],
        ..Job::default()
    }
}

fn matmul_job(n: u32) -> Job {
    Job {
        dispatch: [n / 16, n / 16, 1],
        push_constants: Some(push(&[(ScalarType::U32, n)])),
        buffers: vec![
            f32_buffer(0, (0..n * n).map(|i| ((i * 7 + 3) % 13) as f32 - 6.0)),
            f32_buffer(1, (0..n * n).map(|i| ((i * 5 + 1) % 9) as f32 * 0.5)),
            f32_buffer(2, (0..n * n).map(|_| 0.0)),
        ],
        ..Job::default()
    }
}

fn compare(c: &mut Criterion, name: &str, file: &str, job: &Job, elements: u64) {
    let words = compute::compile(&compute::dir().join(file));
    let mut g = c.benchmark_group(format!("run/{name}"));
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Elements(elements));
    match vulkan::Vulkan::new() {
        Ok(_) => {
            g.bench_function("lavapipe", |b| {
                b.iter(|| {
                    let vk = vulkan::Vulkan::new().expect("Vulkan device");
                    black_box(vk.run(&words, job).expect("lavapipe runs"))
                })
            });
        }
        Err(e) => eprintln!("run/{name}: lavapipe unavailable: {e}"),
    }
    let options = RunOptions::default();
    match run_spirv(&words, job, &options) {
        Ok(_) => {
            g.bench_function("spvkit run", |b| {
                b.iter(|| black_box(run_spirv(&words, job, &options).expect("spvkit runs")))
            });
        }
        Err(e) => eprintln!("run/{name}: spvkit run unavailable: {e}"),
    }
    g.finish();
}

fn run(c: &mut Criterion) {
    let n = 16 << 20;
    compare(c, "saxpy-16M", "saxpy.comp", &saxpy_job(n), u64::from(n));
    let m = 512;
    compare(
        c,
        "matmul-512",
        "tiled_matmul.comp",
        &matmul_job(m),
        u64::from(m * m * m),
    );
}

criterion_group!(benches, run);
criterion_main!(benches);
