//! The one place that calls the hand-written special cases of `src/lower/special/` (bitfield
//! insert/extract, shifts, integer division, F/S/UConvert, Not/LogicalNot, FMod/SMod, Tan/Tanh, function
//! control attributes): which ops they handle, and the calls.

use crate::grammar::{FunctionControl, Opcode};
use crate::lower::error::Result;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// A special case: its name in `special::` and the ops it handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `OpBitFieldInsert`.
    BitFieldInsert,
    /// `OpBitFieldSExtract`.
    BitFieldSExtract,
    /// `OpBitFieldUExtract`.
    BitFieldUExtract,
    /// `OpShiftLeftLogical`.
    ShiftLeftLogical,
    /// `OpShiftRightLogical`.
    ShiftRightLogical,
    /// `OpShiftRightArithmetic`.
    ShiftRightArithmetic,
    /// `OpFConvert`.
    FConvert,
    /// `OpSConvert`.
    SConvert,
    /// `OpUConvert`.
    UConvert,
    /// `OpNot`.
    Not,
    /// `OpLogicalNot`.
    LogicalNot,
    /// `OpFMod`.
    FMod,
    /// `OpSMod`.
    SMod,
    /// `OpUDiv`.
    UDiv,
    /// `OpSDiv`.
    SDiv,
    /// `OpUMod`.
    UMod,
    /// `OpSRem`.
    SRem,
    /// GLSL.std.450 `Tan`.
    Tan,
    /// GLSL.std.450 `Tanh`.
    Tanh,
}

/// The special case of a core op.
pub fn core_special(op: Opcode) -> Option<Special> {
    Some(match op {
        Opcode::BitFieldInsert => Special::BitFieldInsert,
        Opcode::BitFieldSExtract => Special::BitFieldSExtract,
        Opcode::BitFieldUExtract => Special::BitFieldUExtract,
        Opcode::ShiftLeftLogical => Special::ShiftLeftLogical,
        Opcode::ShiftRightLogical => Special::ShiftRightLogical,
        Opcode::ShiftRightArithmetic => Special::ShiftRightArithmetic,
        Opcode::FConvert => Special::FConvert,
        Opcode::SConvert => Special::SConvert,
        Opcode::UConvert => Special::UConvert,
        Opcode::Not => Special::Not,
        Opcode::LogicalNot => Special::LogicalNot,
        Opcode::FMod => Special::FMod,
        Opcode::SMod => Special::SMod,
        Opcode::UDiv => Special::UDiv,
        Opcode::SDiv => Special::SDiv,
        Opcode::UMod => Special::UMod,
        Opcode::SRem => Special::SRem,
        _ => return None,
    })
}

/// The special case of a GLSL.std.450 instruction, by name.
pub fn glsl_special(name: &str) -> Option<Special> {
    Some(match name {
        "Tan" => Special::Tan,
        "Tanh" => Special::Tanh,
        _ => return None,
    })
}

/// Calls the special case's lowering.
pub fn call<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    which: Special,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    use crate::lower::special as s;
    Ok(match which {
        Special::BitFieldInsert => s::bit_field_insert(cx, b, args, result),
        Special::BitFieldSExtract => s::bit_field_s_extract(cx, b, args, result),
        Special::BitFieldUExtract => s::bit_field_u_extract(cx, b, args, result),
        Special::ShiftLeftLogical => s::shift_left_logical(cx, b, args, result),
        Special::ShiftRightLogical => s::shift_right_logical(cx, b, args, result),
        Special::ShiftRightArithmetic => s::shift_right_arithmetic(cx, b, args, result),
        Special::FConvert => s::f_convert(cx, b, args, result),
        Special::SConvert => s::s_convert(cx, b, args, result),
        Special::UConvert => s::u_convert(cx, b, args, result),
        Special::Not => s::not(cx, b, args, result),
        Special::LogicalNot => s::logical_not(cx, b, args, result),
        Special::FMod => s::f_mod(cx, b, args, result),
        Special::SMod => s::s_mod(cx, b, args, result),
        Special::UDiv => s::u_div(cx, b, args, result),
        Special::SDiv => s::s_div(cx, b, args, result),
        Special::UMod => s::u_mod(cx, b, args, result),
        Special::SRem => s::s_rem(cx, b, args, result),
        Special::Tan => s::tan(cx, b, args, result),
        Special::Tanh => s::tanh(cx, b, args, result),
    }?)
}

/// LLVM attributes for a function control mask.
pub fn function_control(
    cx: &Context,
    control: FunctionControl,
) -> Option<Vec<inkwell::attributes::Attribute>> {
    Some(crate::lower::special::function_control_attributes(
        cx, control,
    ))
}
