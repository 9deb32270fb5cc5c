fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let words = spvkit::binary::words_from_bytes(&bytes).unwrap();
    let (h, insts) = spvkit::binary::decode_module(&words).unwrap();
    for i in &insts {
        println!("{i:?}");
    }
    let out = spvkit::binary::encode_module(&h, &insts).unwrap();
    assert_eq!(&out[..], &words[..]);
    println!("roundtrip ok, {} instructions", insts.len());
}
