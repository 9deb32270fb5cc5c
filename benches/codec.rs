//! Binary decode and encode: spvkit's typed instructions against rspirv's `dr::load_words` and
//! `assemble`, on the same modules in the same run: a generated module of over 10 MB and the
//! whole test corpus.

#[path = "support/big_module.rs"]
mod big_module;
#[path = "../tests/support/corpus.rs"]
mod corpus;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rspirv::binary::Assemble;

fn words_of(bytes: &[u8]) -> Vec<u32> {
    spvkit::binary::words_from_bytes(bytes)
        .expect("valid module")
        .into_owned()
}

fn bench_set(c: &mut Criterion, name: &str, modules: &[Vec<u32>]) {
    let bytes: usize = modules.iter().map(|m| m.len() * 4).sum();
    let mut g = c.benchmark_group(format!("decode/{name}"));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.bench_function("spvkit typed", |b| {
        b.iter(|| {
            for m in modules {
                black_box(spvkit::binary::decode_module(m).expect("decodes"));
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
    g.finish();

    let ours: Vec<_> = modules
        .iter()
        .map(|m| spvkit::binary::decode_module(m).expect("decodes"))
        .collect();
    let theirs: Vec<_> = modules
        .iter()
        .map(|m| rspirv::dr::load_words(m).expect("loads"))
        .collect();
    let mut g = c.benchmark_group(format!("encode/{name}"));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.bench_function("spvkit", |b| {
        b.iter(|| {
            for (h, insts) in &ours {
                black_box(spvkit::binary::encode_module(h, insts).expect("encodes"));
            }
        })
    });
    g.bench_function("rspirv assemble", |b| {
        b.iter(|| {
            for m in &theirs {
                black_box(m.assemble());
            }
        })
    });
    g.finish();
}

fn codec(c: &mut Criterion) {
    let (_, big) = big_module::binary(10 << 20);
    bench_set(c, "big", &[words_of(&big)]);
    // The modules both libraries read (rspirv rejects one valid module; see tests/codec.rs).
    let corpus: Vec<Vec<u32>> = corpus::build_all()
        .iter()
        .map(|m| words_of(&std::fs::read(&m.path).expect("corpus module")))
        .filter(|w| rspirv::dr::load_words(w).is_ok())
        .collect();
    bench_set(c, "corpus", &corpus);
}

criterion_group!(benches, codec);
criterion_main!(benches);
