//! Which ops the lowering handles, and how, from `grammar/lowering.json` alone: its patterns,
//! the special cases of `src/lower/special/` it names, and the ops it names as hand-written
//! (`src/lower/ops/` or the function and terminator lowering). Tests and docs print it.

use super::special_dispatch::{core_special, ext_special, Special};
use crate::grammar::lowering::{
    CORE_HAND_WRITTEN, CORE_PATTERNS, CORE_SPECIAL, EXT_HAND_WRITTEN, EXT_PATTERNS, EXT_SPECIAL,
};
use crate::grammar::Opcode;

/// How an op is lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LoweredBy {
    /// A pattern of the generated table (`grammar/lowering.json`).
    Table,
    /// Hand-written code in `src/lower/ops/` (or the function and terminator lowering).
    HandWritten,
    /// A special case of `src/lower/special/`.
    Special,
}

/// Every lowered op: `(set, name, how)`, set `""` for core ops.
pub fn lowered_ops() -> Vec<(&'static str, String, LoweredBy)> {
    let mut out = Vec::new();
    for (_, p) in CORE_PATTERNS {
        out.push(("", p.name.to_string(), LoweredBy::Table));
    }
    for (how, list) in [
        (LoweredBy::Special, CORE_SPECIAL),
        (LoweredBy::HandWritten, CORE_HAND_WRITTEN),
    ] {
        for (_, h) in list {
            out.push(("", h.name.to_string(), how));
        }
    }
    for (set, pats) in EXT_PATTERNS {
        for (_, p) in pats.iter() {
            out.push((*set, p.name.to_string(), LoweredBy::Table));
        }
    }
    for (how, sets) in [
        (LoweredBy::Special, EXT_SPECIAL),
        (LoweredBy::HandWritten, EXT_HAND_WRITTEN),
    ] {
        for (set, list) in sets {
            for (_, h) in list.iter() {
                out.push((*set, h.name.to_string(), how));
            }
        }
    }
    out
}

/// The handler of `crate::lower::special` that the lowering calls for a core op, if any: tests
/// check it against the table's `special` entries.
pub fn core_special_handler(op: Opcode) -> Option<&'static str> {
    core_special(op).map(Special::handler)
}

/// The handler of `crate::lower::special` that the lowering calls for instruction `number` of
/// the extended set imported as `set`, if any.
pub fn ext_special_handler(set: &str, number: u32) -> Option<&'static str> {
    ext_special(set, number).map(Special::handler)
}
