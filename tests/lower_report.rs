//! Which ops the lowering handles, and how (the generated table, hand-written code, or the
//! special cases of `src/lower/special/`); what it does not handle must be listed in
//! `docs/lowering.md`.
#![cfg(feature = "llvm")]

use spvkit::grammar::tables::EXT_INST_SETS;
use spvkit::lower::{lowered_ops, LoweredBy};
use std::collections::BTreeSet;

#[test]
fn report_lowered_ops_and_document_the_rest() {
    let ops = lowered_ops();
    for how in [LoweredBy::Table, LoweredBy::HandWritten, LoweredBy::Special] {
        let names: Vec<String> = ops
            .iter()
            .filter(|o| o.2 == how)
            .map(|o| {
                if o.0.is_empty() {
                    o.1.clone()
                } else {
                    format!("{} {}", o.0, o.1)
                }
            })
            .collect();
        println!("lowered by {how:?} ({}): {}", names.len(), names.join(", "));
    }
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lowering.md"))
        .expect("docs/lowering.md");
    for set in ["GLSL.std.450", "OpenCL.std"] {
        let desc = EXT_INST_SETS.iter().find(|s| s.name == set).unwrap();
        let lowered: BTreeSet<&str> = ops
            .iter()
            .filter(|o| o.0 == set)
            .map(|o| o.1.as_str())
            .collect();
        for n in &lowered {
            assert!(
                desc.instructions.iter().any(|i| i.name == *n),
                "{set} has no instruction {n}"
            );
        }
        let missing: Vec<&str> = desc
            .instructions
            .iter()
            .map(|i| i.name)
            .filter(|n| !lowered.contains(n))
            .collect();
        println!(
            "{set} not lowered ({}): {}",
            missing.len(),
            missing.join(", ")
        );
        for n in missing {
            assert!(
                docs.contains(&format!("`{n}`")),
                "docs/lowering.md does not list {set} `{n}` as not lowered"
            );
        }
    }
    // Core ops in the lists are real opcodes.
    for (set, name, _) in &ops {
        if set.is_empty() {
            assert!(
                spvkit::grammar::tables::core_instruction_by_name(name).is_some(),
                "no core op {name}"
            );
        }
    }
}
