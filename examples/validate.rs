//! Validates SPIR-V binaries: `cargo run --example validate -- [--target-env ENV] FILE...`.
//! Prints every error; exits 1 when any file is invalid.

fn main() {
    let mut env = spvkit::target_env::TargetEnv::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--target-env" {
            let name = args.next().unwrap_or_default();
            env = match name.parse() {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(2)
                }
            };
        } else {
            files.push(a);
        }
    }
    let mut failed = false;
    for f in files {
        let bytes = match std::fs::read(&f) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{f}: {e}");
                failed = true;
                continue;
            }
        };
        let words = match spvkit::binary::words_from_bytes(&bytes) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{f}: {e}");
                failed = true;
                continue;
            }
        };
        if let Err(errors) = spvkit::validate::validate(&words, env) {
            failed = true;
            for e in errors {
                println!("{f}: {e}");
            }
        }
    }
    std::process::exit(i32::from(failed));
}
