//! Generates spvkit's grammar code into OUT_DIR from `grammar/` (or `$SPIRV_GRAMMAR_DIR`).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=SPIRV_GRAMMAR_DIR");
    let manifest = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let dir = match std::env::var_os("SPIRV_GRAMMAR_DIR") {
        Some(d) => manifest.join(d),
        None => manifest.join("grammar"),
    };
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut loaded = spvkit_generator::load(&dir)
        .unwrap_or_else(|e| panic!("reading the grammar in {}: {e}", dir.display()));
    // The lowering table is spvkit's own: a newer grammar directory has none, so the repo's is
    // checked against that grammar instead.
    if loaded.grammar.lowering.is_none() {
        let table = manifest.join("grammar/lowering.json");
        spvkit_generator::add_lowering_table(&mut loaded, &table)
            .unwrap_or_else(|e| panic!("{}: {e}", table.display()));
    }
    if loaded.grammar.groups.is_none() {
        let table = manifest.join("grammar/opcode_groups.json");
        spvkit_generator::add_groups_table(&mut loaded, &table)
            .unwrap_or_else(|e| panic!("{}: {e}", table.display()));
    }
    for p in &loaded.inputs {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    for k in &loaded.unknown_keys {
        println!("cargo:warning=grammar key the generator does not understand: {k}");
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let files = spvkit_generator::generate(&loaded.grammar)
        .unwrap_or_else(|e| panic!("generating from {}: {e}", dir.display()));
    for f in files {
        std::fs::write(out.join(f.name), f.contents)
            .unwrap_or_else(|e| panic!("writing {}: {e}", f.name));
    }
    println!("cargo:rustc-env=SPVKIT_GRAMMAR_DIR={}", dir.display());
    if std::env::var_os("CARGO_FEATURE_LLVM").is_some() {
        llvm_shim(&manifest);
    }
}

/// The C++ shim of `from-llvm`'s lazy bitcode loading (src/from_llvm/lazy.cpp), against the
/// headers of the LLVM 19 that llvm-sys links.
fn llvm_shim(manifest: &std::path::Path) {
    let src = manifest.join("src/from_llvm/lazy.cpp");
    println!("cargo:rerun-if-changed={}", src.display());
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    let include = match std::env::var_os("LLVM_SYS_191_PREFIX") {
        Some(p) => PathBuf::from(p).join("include"),
        None => ["llvm-config-19", "llvm-config"]
            .iter()
            .find_map(|c| {
                let out = std::process::Command::new(c)
                    .arg("--includedir")
                    .output()
                    .ok()?;
                out.status
                    .success()
                    .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
            })
            .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-19/include")),
    };
    cc::Build::new()
        .cpp(true)
        .file(&src)
        .include(&include)
        .std("c++17")
        // As LLVM itself is built: no RTTI or exceptions, release headers.
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .define("NDEBUG", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .warnings(false)
        .compile("spvkit_llvm_shim");
}
