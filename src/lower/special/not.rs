//! OpNot and OpLogicalNot.
//!
//! Not a table entry because LLVM has no `not` instruction: both are `xor` with an all-ones
//! constant of the operand's own type (every bit for OpNot, `true` for OpLogicalNot), which the
//! table's one-op-to-one-instruction form cannot spell.

use super::common::{arg, ibin, IBin, IntShape, MISFIT};
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// Every bit of the integer (vector) operand flipped (SPIR-V OpNot).
pub fn not<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    flip(b, args, result, None)
}

/// The boolean (vector) operand negated (SPIR-V OpLogicalNot); booleans are `i1`.
pub fn logical_not<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    flip(b, args, result, Some(1))
}

fn flip<'ctx>(
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
    width: Option<u32>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let v = arg(args, 0)?;
    let shape = IntShape::of(v)?;
    if v.get_type() != result || width.is_some_and(|w| w != shape.width()) {
        return Err(MISFIT);
    }
    ibin(b, IBin::Xor, v, shape.ones())
}
