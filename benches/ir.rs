//! The IR: `ir::deserialize` against rspirv's `dr::load_words` (its data representation, the
//! closest thing rspirv has to reading a module into memory), and `ir::serialize`, on the same
//! modules in the same run: a generated module of over 10 MB and the whole test corpus.

#[path = "support/big_module.rs"]
mod big_module;
#[path = "../tests/support/corpus.rs"]
mod corpus;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn words_of(bytes: &[u8]) -> Vec<u32> {
    spvkit::binary::words_from_bytes(bytes)
        .expect("valid module")
        .into_owned()
}

fn bench_set(c: &mut Criterion, name: &str, modules: &[Vec<u32>]) {
    let bytes: usize = modules.iter().map(|m| m.len() * 4).sum();
    let mut g = c.benchmark_group(format!("ir/{name}"));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.bench_function("spvkit deserialize", |b| {
        b.iter(|| {
            for m in modules {
                black_box(spvkit::ir::deserialize(m).expect("deserializes"));
            }
        })
    });
    g.bench_function("rspirv load_words", |b| {
        b.iter(|| {
            for m in modules {
                black_box(rspirv::dr::load_words(m).expect("loads"));
            }
        })
    });
    let irs: Vec<_> = modules
        .iter()
        .map(|m| spvkit::ir::deserialize(m).expect("deserializes"))
        .collect();
    g.bench_function("spvkit serialize", |b| {
        b.iter(|| {
            for ir in &irs {
                black_box(spvkit::ir::serialize(ir).expect("serializes"));
            }
        })
    });
    g.finish();
}

fn ir(c: &mut Criterion) {
    let (_, big) = big_module::binary(10 << 20);
    bench_set(c, "big", &[words_of(&big)]);
    let corpus: Vec<Vec<u32>> = corpus::build_all()
        .iter()
        .filter(|m| m.valid)
        .map(|m| words_of(&std::fs::read(&m.path).expect("corpus module")))
        // rspirv cannot load a few valid modules (its bugs); compare on the others.
        .filter(|w| rspirv::dr::load_words(w).is_ok())
        .collect();
    bench_set(c, "corpus", &corpus);
}

criterion_group!(benches, ir);
criterion_main!(benches);
