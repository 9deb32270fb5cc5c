//! Which ops the lowering handles, and how (the generated table, hand-written code, or the
//! special cases of `src/lower/special/`), all from `grammar/lowering.json`; what it does not
//! handle must be listed in `docs/lowering.md`.
#![cfg(feature = "llvm")]

use spvkit::grammar::lowering::{
    core_pattern, ext_pattern, Handler, CORE_HAND_WRITTEN, CORE_PATTERNS, CORE_SPECIAL,
    EXT_HAND_WRITTEN, EXT_SPECIAL,
};
use spvkit::grammar::tables::EXT_INST_SETS;
use spvkit::grammar::Opcode;
use spvkit::lower::{core_special_handler, ext_special_handler, lowered_ops, LoweredBy};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

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

/// The entries of one list, by op; a repeated op fails.
fn by_op<K: Ord + Copy + std::fmt::Debug>(list: &[(K, Handler)]) -> BTreeMap<K, &'static str> {
    let mut out = BTreeMap::new();
    for (k, h) in list {
        assert!(out.insert(*k, h.code).is_none(), "{k:?} is listed twice");
    }
    out
}

#[test]
fn every_core_op_has_one_route_and_the_lowering_takes_it() {
    let table: BTreeSet<Opcode> = CORE_PATTERNS.iter().map(|(op, _)| *op).collect();
    assert_eq!(
        table.len(),
        CORE_PATTERNS.len(),
        "a core pattern is listed twice"
    );
    let special = by_op(CORE_SPECIAL);
    let hand = by_op(CORE_HAND_WRITTEN);
    let mut refused = Vec::new();
    for &op in Opcode::ALL {
        let routes = [
            table.contains(&op),
            special.contains_key(&op),
            hand.contains_key(&op),
        ];
        assert!(
            routes.iter().filter(|r| **r).count() <= 1,
            "{} has more than one route",
            op.name()
        );
        if !routes.contains(&true) {
            refused.push(op.name());
        }
        // The dispatch takes the table's route: its pattern, or its special case's handler.
        assert_eq!(
            core_pattern(op).is_some(),
            table.contains(&op),
            "{}",
            op.name()
        );
        assert_eq!(
            core_special_handler(op),
            special.get(&op).copied(),
            "{}",
            op.name()
        );
    }
    for op in [Opcode::UDiv, Opcode::SDiv, Opcode::UMod, Opcode::SRem] {
        assert!(special.contains_key(&op), "{} is not special", op.name());
    }
    println!(
        "core ops: {} table, {} special, {} hand-written, {} not in the table (refused, or \
         declarations the IR reads: types, decorations, debug names): {}",
        table.len(),
        special.len(),
        hand.len(),
        refused.len(),
        refused.join(", ")
    );
    // Extended sets: the same, per instruction number.
    for (sets, name) in [(EXT_SPECIAL, "special"), (EXT_HAND_WRITTEN, "hand-written")] {
        for (set, list) in sets {
            let desc = EXT_INST_SETS.iter().find(|s| s.name == *set).unwrap();
            for (n, h) in by_op(list) {
                assert!(
                    desc.instruction(n).is_some(),
                    "{set} has no instruction {n}"
                );
                assert!(ext_pattern(set, n).is_none(), "{set} {h} is also a pattern");
                if name == "special" {
                    assert_eq!(ext_special_handler(set, n), Some(h), "{set} {n}");
                }
            }
        }
    }
    for desc in EXT_INST_SETS {
        for i in desc.instructions {
            let special = EXT_SPECIAL
                .iter()
                .filter(|(set, _)| *set == desc.name)
                .flat_map(|(_, list)| list.iter())
                .find(|(n, _)| *n == i.opcode)
                .map(|(_, h)| h.code);
            assert_eq!(
                ext_special_handler(desc.name, i.opcode),
                special,
                "{}",
                i.name
            );
        }
    }
}

#[test]
fn every_hand_written_module_exists() {
    let lower = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lower");
    let core = CORE_HAND_WRITTEN.iter().map(|(_, h)| h.code);
    let ext = EXT_HAND_WRITTEN
        .iter()
        .flat_map(|(_, list)| list.iter().map(|(_, h)| h.code));
    let modules: BTreeSet<&str> = core.chain(ext).collect();
    for m in modules {
        let found = [
            lower.join("ops").join(format!("{m}.rs")),
            lower.join(format!("{m}.rs")),
            lower.join(m).join("mod.rs"),
        ]
        .iter()
        .any(|p| p.exists());
        assert!(
            found,
            "lowering.json names a module `{m}` that src/lower/ has not"
        );
    }
}
