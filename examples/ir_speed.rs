//! `cargo run --release --example ir_speed -- module.spv [iterations]`: IR deserialize and
//! serialize throughput against rspirv's `dr::load_words` and binary decoding (best of the
//! iterations). With `IR_SPEED_ONLY=deserialize` (or `decode`, `rspirv`, and `deserialize-nodrop`
//! or `rspirv-nodrop`, which leak the result to leave dropping out) it only does that, n times,
//! for profiling.
use std::time::{Duration, Instant};

fn best<T>(n: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            let r = f();
            let d = t.elapsed();
            drop(std::hint::black_box(r));
            d
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: ir_speed module.spv [iterations]");
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let bytes = std::fs::read(&path).expect("readable module");
    let words = spvkit::binary::words_from_bytes(&bytes).expect("a SPIR-V module");
    match std::env::var("IR_SPEED_ONLY").as_deref() {
        Ok("deserialize") => {
            for _ in 0..n {
                std::hint::black_box(spvkit::ir::deserialize(&words).expect("deserializes"));
            }
            return;
        }
        Ok("deserialize-nodrop") => {
            for _ in 0..n {
                std::mem::forget(spvkit::ir::deserialize(&words).expect("deserializes"));
            }
            return;
        }
        Ok("rspirv-nodrop") => {
            for _ in 0..n {
                std::mem::forget(rspirv::dr::load_words(&words[..]).expect("rspirv loads"));
            }
            return;
        }
        Ok("decode") => {
            for _ in 0..n {
                std::hint::black_box(spvkit::binary::decode_module(&words).expect("decodes"));
            }
            return;
        }
        Ok("rspirv") => {
            for _ in 0..n {
                std::hint::black_box(rspirv::dr::load_words(&words[..]).expect("rspirv loads"));
            }
            return;
        }
        _ => {}
    }
    let mb = bytes.len() as f64 / 1e6;
    let ir = spvkit::ir::deserialize(&words).expect("deserializes");
    let d = best(n, || spvkit::ir::deserialize(&words).expect("deserializes"));
    let s = best(n, || spvkit::ir::serialize(&ir).expect("serializes"));
    let b = best(n, || {
        spvkit::binary::decode_module(&words).expect("decodes")
    });
    let r = best(n, || {
        rspirv::dr::load_words(&words[..]).expect("rspirv loads")
    });
    println!(
        "{:.1} MB: deserialize {:.0} MB/s, serialize {:.0} MB/s | binary decode {:.0} MB/s | rspirv load_words {:.0} MB/s: deserialize is {:.2}x rspirv",
        mb,
        mb / d.as_secs_f64(),
        mb / s.as_secs_f64(),
        mb / b.as_secs_f64(),
        mb / r.as_secs_f64(),
        r.as_secs_f64() / d.as_secs_f64(),
    );
}
