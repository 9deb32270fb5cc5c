//! The SPIR-V grammar as Rust: generated at build time from `grammar/*.json` (or
//! `$SPIRV_GRAMMAR_DIR`) by `spvkit-generator`, plus the few hand-written types the generated
//! code is written against ([`support`]).
//!
//! - enums and flags for every operand kind, with `Display`/`FromStr` in the grammar's spelling;
//! - [`Opcode`], a struct per instruction and the [`Instruction`] enum over them;
//! - availability (versions, capabilities, extensions) of every instruction and enumerant, and
//!   [`Requires`] to collect what an instruction needs;
//! - [`tables`]: static descriptors for table-driven tools such as the text codec;
//! - [`ext`]: the same for every extended instruction set.

pub mod support;

pub use support::*;

#[allow(clippy::all, missing_docs, non_camel_case_types, unused_imports)]
mod enums {
    use super::support::*;
    include!(concat!(env!("OUT_DIR"), "/enums.rs"));
}
pub use enums::*;

#[allow(clippy::all, missing_docs, non_camel_case_types, unused_imports)]
mod ops {
    use super::enums::*;
    use super::support::*;
    include!(concat!(env!("OUT_DIR"), "/ops.rs"));
}
pub use ops::*;

#[allow(clippy::all, non_camel_case_types, unused_imports)]
mod ids {
    use super::enums::*;
    use super::ops::*;
    use super::support::*;
    include!(concat!(env!("OUT_DIR"), "/ids.rs"));
}

#[allow(clippy::all, non_camel_case_types, unused_imports)]
mod availability {
    use super::enums::*;
    use super::ops::*;
    use super::support::*;
    include!(concat!(env!("OUT_DIR"), "/availability.rs"));
}

/// Static descriptor tables of the grammar, for table-driven tools (the text codec).
#[allow(clippy::all, missing_docs, non_camel_case_types, unused_imports)]
pub mod tables {
    use super::support::*;
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}

/// Extended instruction sets: a module per set, [`ext::ExtInstSet`] and [`ext::ExtInstruction`].
#[allow(
    clippy::all,
    missing_docs,
    non_camel_case_types,
    unused_imports,
    non_snake_case
)]
pub mod ext {
    use super::support::*;
    include!(concat!(env!("OUT_DIR"), "/ext.rs"));
}

/// The lowering pattern table generated from `grammar/lowering.json`: one-to-one conversions
/// from core ops and extended instructions to LLVM instructions, predicates, intrinsics and C
/// math functions, as plain data (`spvkit::lower` maps the names to LLVM).
pub mod lowering {
    use super::Opcode;
    include!(concat!(env!("OUT_DIR"), "/lowering.rs"));
}
