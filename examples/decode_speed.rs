fn main() {
    let bytes = std::fs::read(std::env::args().nth(1).unwrap()).unwrap();
    let words = spvkit::binary::words_from_bytes(&bytes).unwrap();
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let (h, insts) = spvkit::binary::decode_module(&words).unwrap();
        let d = t.elapsed();
        let t = std::time::Instant::now();
        let out = spvkit::binary::encode_module(&h, &insts).unwrap();
        let e = t.elapsed();
        let t = std::time::Instant::now();
        let m = rspirv::dr::load_words(&words[..]).unwrap();
        let r = t.elapsed();
        use rspirv::binary::Assemble;
        let t = std::time::Instant::now();
        let a = m.assemble();
        let ra = t.elapsed();
        let mb = bytes.len() as f64 / 1e6;
        println!("decode {:.0} MB/s encode {:.0} MB/s | rspirv load {:.0} MB/s assemble {:.0} MB/s ({} {})", mb / d.as_secs_f64(), mb / e.as_secs_f64(), mb / r.as_secs_f64(), mb/ra.as_secs_f64(), out.len(), a.len());
    }
}
