//! The one place that calls the special cases of `src/lower/special/`: `Special`,
//! `core_special`, `ext_special` and `call` are generated from the `special` entries of
//! `grammar/lowering.json` (the generator's `lowering_dispatch.rs`).

use crate::grammar::Opcode;

include!(concat!(env!("OUT_DIR"), "/lowering_dispatch.rs"));
