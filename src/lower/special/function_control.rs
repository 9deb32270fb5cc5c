//! SPIR-V function control → LLVM 19 function attributes.
//!
//! Not a table entry because it maps a set of flags to a set of attributes with conflicts to
//! settle, and because the reference's mapping is stale: LLVM ≥ 16 rejects `readonly` and
//! `readnone` on functions in favour of the `memory` attribute. The mapping:
//!
//! - Inline → `alwaysinline`; DontInline → `noinline` (DontInline wins when both are set, as
//!   LLVM rejects the pair and not inlining is always correct);
//! - Pure → `memory(read)`; Const → `memory(none)` (Const wins when both are set: it implies
//!   Pure);
//! - OptNoneINTEL → `optnone` with the `noinline` LLVM requires beside it.

use crate::grammar::FunctionControl;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::context::Context;
use inkwell::values::FunctionValue;

/// LLVM 19's `memory` attribute value for "reads any memory, writes none": ModRef::Ref (1) in
/// each of the three 2-bit location fields (argument, inaccessible, other memory).
const MEMORY_READ: u64 = 0b01_01_01;
/// LLVM 19's `memory` attribute value for "touches no memory".
const MEMORY_NONE: u64 = 0;

/// The LLVM function attributes for a SPIR-V function control mask (none for `None`); unknown
/// bits are ignored.
pub fn function_control_attributes(cx: &Context, control: FunctionControl) -> Vec<Attribute> {
    let mut wanted: Vec<(&str, u64)> = Vec::new();
    let optnone = control.contains(FunctionControl::OptNoneINTEL);
    if control.contains(FunctionControl::DontInline) || optnone {
        wanted.push(("noinline", 0));
    } else if control.contains(FunctionControl::Inline) {
        wanted.push(("alwaysinline", 0));
    }
    if optnone {
        wanted.push(("optnone", 0));
    }
    if control.contains(FunctionControl::Const) {
        wanted.push(("memory", MEMORY_NONE));
    } else if control.contains(FunctionControl::Pure) {
        wanted.push(("memory", MEMORY_READ));
    }
    wanted
        .into_iter()
        .filter_map(|(name, value)| {
            let kind = Attribute::get_named_enum_kind_id(name);
            (kind != 0).then(|| cx.create_enum_attribute(kind, value))
        })
        .collect()
}

/// Adds the attributes of [`function_control_attributes`] to `function`.
pub fn apply_function_control<'ctx>(
    cx: &'ctx Context,
    function: FunctionValue<'ctx>,
    control: FunctionControl,
) {
    for attribute in function_control_attributes(cx, control) {
        function.add_attribute(AttributeLoc::Function, attribute);
    }
}
