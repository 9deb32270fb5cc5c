//! The IR over the whole corpus: for every valid module `m`, `serialize(deserialize(m))`
//! passes spirv-val in `m`'s environment, and `deserialize(serialize(deserialize(m)))` equals
//! `deserialize(m)`. Modules marked invalid, and random mutations of the corpus, must not make
//! the IR panic, and when they deserialize, they round-trip to the same IR too.

#[path = "support/corpus.rs"]
mod corpus;

use spvkit::ir::{deserialize, serialize, Module};
use std::path::PathBuf;

/// Where the re-serialized binaries are written for spirv-val.
fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ir-roundtrip");
    std::fs::create_dir_all(&dir).expect("create the round-trip output directory");
    dir
}

/// The first part of two IRs that differs, for a readable failure.
fn first_difference(a: &Module, b: &Module) -> String {
    macro_rules! check {
        ($($field:ident),*) => {
            $(
                if a.$field != b.$field {
                    let (x, y) = (format!("{:#?}", a.$field), format!("{:#?}", b.$field));
                    let line = x
                        .lines()
                        .zip(y.lines())
                        .position(|(p, q)| p != q)
                        .unwrap_or(0);
                    let around = |s: &str| {
                        s.lines().skip(line.saturating_sub(3)).take(6).collect::<Vec<_>>().join("\n")
                    };
                    return format!(
                        "`{}` differs near line {line}:\n--- first\n{}\n--- second\n{}",
                        stringify!($field),
                        around(&x),
                        around(&y)
                    );
                }
            )*
        };
    }
    check!(
        version,
        generator,
        capabilities,
        extensions,
        ext_inst_imports,
        addressing_model,
        memory_model,
        entry_points,
        execution_modes,
        strings,
        sources,
        source_extensions,
        processes,
        types,
        type_names,
        type_decorations,
        constants,
        spec_constants,
        globals,
        ext_insts,
        functions
    );
    "no difference found".into()
}

#[test]
fn corpus_round_trips_through_the_ir() {
    let modules = corpus::build_all();
    assert!(
        modules.len() >= 200,
        "corpus has only {} modules",
        modules.len()
    );
    let dir = out_dir();
    let (mut valid, mut valid_passed, mut equal, mut invalid_deserialized) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for m in &modules {
        let words = m.words();
        let ir = match deserialize(&words) {
            Ok(ir) => ir,
            Err(e) => {
                if m.valid {
                    failures.push(format!("{}: deserialize: {e}", m.name));
                }
                continue;
            }
        };
        if let Err(e) = spvkit::ir::check(&ir) {
            failures.push(format!(
                "{}: ir::check rejects the deserialized module: {e}",
                m.name
            ));
            continue;
        }
        let out = serialize(&ir).expect("a checked module serializes");
        let text = spvkit::ir::print(&ir);
        assert!(text.starts_with("spirv.module "), "{}: print", m.name);
        if m.valid {
            valid += 1;
            let path = dir.join(m.path.file_name().expect("corpus paths have file names"));
            let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
            std::fs::write(&path, bytes).expect("write the re-serialized module");
            let copy = corpus::Module {
                path: path.clone(),
                ..m.clone()
            };
            match corpus::spirv_val(&copy) {
                Ok(()) => valid_passed += 1,
                Err(e) => failures.push(format!(
                    "{}: serialize(deserialize(m)) fails spirv-val --target-env {} ({}):\n{e}",
                    m.name,
                    m.target_env,
                    path.display()
                )),
            }
        } else {
            invalid_deserialized += 1;
        }
        match deserialize(&out) {
            Ok(again) if again == ir => equal += 1,
            Ok(again) => failures.push(format!(
                "{}: deserialize(serialize(ir)) != ir: {}",
                m.name,
                first_difference(&ir, &again)
            )),
            Err(e) => failures.push(format!("{}: deserializing the output: {e}", m.name)),
        }
    }
    eprintln!(
        "IR round trip: {} modules; valid: {valid} deserialized, {valid_passed} pass spirv-val after the round trip; \
         invalid-but-deserializable: {invalid_deserialized}; IR equal after the round trip: {equal}",
        modules.len()
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    let expected_valid = modules.iter().filter(|m| m.valid).count();
    assert_eq!(valid, expected_valid, "every valid module deserializes");
}

/// A small deterministic generator for mutations.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn malformed_modules_are_errors_not_panics() {
    let modules = corpus::build_all();
    let mut rng = Lcg(0x5eed);
    let (mut tried, mut rejected) = (0usize, 0usize);
    for m in modules.iter().step_by(3) {
        let words = m.words();
        // Truncations at every instruction-ish boundary, and random word mutations.
        for cut in (5..words.len()).step_by((words.len() / 16).max(1)) {
            tried += 1;
            rejected += usize::from(deserialize(&words[..cut]).is_err());
        }
        for _ in 0..40 {
            let mut w = words.clone();
            let i = 5 + (rng.next() as usize) % (w.len() - 5);
            w[i] = match rng.next() % 4 {
                0 => rng.next() as u32,
                1 => w[i] ^ (1 << (rng.next() % 32)),
                2 => w[i].wrapping_add(1),
                _ => 0,
            };
            tried += 1;
            match deserialize(&w) {
                Ok(ir) => {
                    let _ = spvkit::ir::print(&ir);
                    // Whatever deserializes passes the check.
                    let out = serialize(&ir).unwrap_or_else(|e| {
                        panic!("{}: a mutation's IR fails ir::check: {e}", m.name)
                    });
                    // Whatever was accepted serializes, and reads back into the same IR.
                    match deserialize(&out) {
                        Ok(again) => assert!(
                            again == ir,
                            "{}: a mutation's IR changes in a round trip: {}",
                            m.name,
                            first_difference(&ir, &again)
                        ),
                        Err(e) => panic!("{}: a mutation's output does not read back: {e}", m.name),
                    }
                }
                Err(e) => {
                    rejected += 1;
                    assert!(
                        e.offset <= w.len(),
                        "{}: error offset {} past the end",
                        m.name,
                        e.offset
                    );
                }
            }
        }
    }
    eprintln!("malformed input: {tried} tried, {rejected} rejected, none panicked");
}

/// Inputs the `ir` fuzz target found: whatever deserializes reads back into the same IR.
#[test]
fn fuzz_regressions_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions/ir");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the regression directory") {
        let path = entry.expect("a directory entry").path();
        let bytes = std::fs::read(&path).expect("a regression input");
        n += 1;
        let Ok(words) = spvkit::binary::words_from_bytes(&bytes) else {
            continue;
        };
        if let Ok(ir) = deserialize(&words) {
            let _ = spvkit::ir::print(&ir);
            let out = serialize(&ir)
                .unwrap_or_else(|e| panic!("{}: fails ir::check: {e}", path.display()));
            let again = deserialize(&out).unwrap_or_else(|e| {
                panic!("{}: the output does not read back: {e}", path.display())
            });
            assert!(
                again == ir,
                "{}: {}",
                path.display(),
                first_difference(&ir, &again)
            );
        }
    }
    assert!(n > 0, "no regression inputs in {}", dir.display());
}

/// OpGroupDecorate copies a decoration group's list; with any other id as the "group", or a
/// group as a target, a module could double its lists with every instruction (the `ir` fuzz
/// target found a 2.6 kB module asking for gigabytes). Both are errors.
#[test]
fn group_decorations_need_a_group_and_no_group_targets() {
    let assemble = |text: &str| {
        let opts = spvkit::text::AssembleOptions::default();
        spvkit::text::assemble(text, &opts).expect("assembles")
    };
    let head = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n";
    let tail = "%float = OpTypeFloat 32\n%ptr = OpTypePointer Private %float\n\
                %x = OpVariable %ptr Private\n%y = OpVariable %ptr Private\n";
    let ok = assemble(&format!(
        "{head}OpDecorate %g RelaxedPrecision\n%g = OpDecorationGroup\nOpGroupDecorate %g %x %y\n{tail}"
    ));
    assert!(deserialize(&ok).is_ok());
    let not_a_group = assemble(&format!(
        "{head}OpDecorate %x RelaxedPrecision\nOpGroupDecorate %x %x %x %y\n{tail}"
    ));
    let e = deserialize(&not_a_group).unwrap_err().to_string();
    assert!(e.contains("decoration group"), "{e}");
    let group_target = assemble(&format!(
        "{head}OpDecorate %g RelaxedPrecision\n%g = OpDecorationGroup\n\
         %h = OpDecorationGroup\nOpGroupDecorate %g %h %x\n{tail}"
    ));
    let e = deserialize(&group_target).unwrap_err().to_string();
    assert!(e.contains("targets a decoration group"), "{e}");
}

/// `StreamingSerializer`, as `from-llvm` uses it: each function definition written in turn
/// and its body dropped from the IR, the rest at the end. The result is the module
/// `serialize` writes up to numbering: it reads back as the same IR and passes spirv-val.
#[test]
fn corpus_streams_function_by_function() {
    let modules = corpus::build_all();
    let dir = out_dir().join("streamed");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    let (mut streamed, mut with_functions) = (0, 0);
    let mut failures = Vec::new();
    for m in modules.iter().filter(|m| m.valid) {
        let Ok(ir) = deserialize(&m.words()) else {
            continue;
        };
        let mut shrinking = ir.clone();
        let mut sink = spvkit::ir::StreamingSerializer::new();
        let definitions: Vec<_> = ir
            .functions
            .iter()
            .filter(|(_, f)| !f.is_declaration())
            .map(|(h, _)| h)
            .collect();
        with_functions += usize::from(!definitions.is_empty());
        for h in definitions {
            sink.write_function(&shrinking, h)
                .expect("a checked function");
            let f = &mut shrinking.functions[h];
            f.ops = spvkit::ir::Arena::new();
            f.header.clear();
            f.block_args = spvkit::ir::Arena::new();
            f.blocks = spvkit::ir::Arena::new();
        }
        let out = sink.finish(&shrinking).expect("a checked module");
        streamed += 1;
        match deserialize(&out) {
            Ok(again) if again == ir => {}
            Ok(again) => failures.push(format!(
                "{}: streamed module reads back different: {}",
                m.name,
                first_difference(&ir, &again)
            )),
            Err(e) => failures.push(format!(
                "{}: deserializing the streamed module: {e}",
                m.name
            )),
        }
        let path = dir.join(m.path.file_name().expect("corpus paths have file names"));
        let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&path, bytes).expect("write the streamed module");
        let copy = corpus::Module {
            path: path.clone(),
            ..m.clone()
        };
        if let Err(e) = corpus::spirv_val(&copy) {
            failures.push(format!(
                "{}: the streamed module fails spirv-val ({}):\n{e}",
                m.name,
                path.display()
            ));
        }
    }
    eprintln!("streamed {streamed} modules ({with_functions} with function definitions)");
    assert!(
        with_functions >= 150,
        "only {with_functions} modules have functions"
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
