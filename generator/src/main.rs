//! `cargo run -p spvkit-generator -- <grammar dir> <output dir>`: writes the generated files,
//! e.g. to refresh the committed copy in `generated/`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [grammar, out] = args.as_slice() else {
        eprintln!("usage: spvkit-generator <grammar dir> <output dir>");
        std::process::exit(2);
    };
    let run = || -> Result<(), String> {
        let loaded = spvkit_generator::load(std::path::Path::new(grammar))?;
        for k in &loaded.unknown_keys {
            eprintln!("warning: grammar key the generator does not understand: {k}");
        }
        std::fs::create_dir_all(out).map_err(|e| format!("{out}: {e}"))?;
        for f in spvkit_generator::generate(&loaded.grammar)? {
            let path = std::path::Path::new(out).join(f.name);
            std::fs::write(&path, f.contents).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
